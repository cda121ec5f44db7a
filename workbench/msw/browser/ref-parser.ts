// @apidevtools/json-schema-ref-parser in the sandbox's browser build: what contract/model.ts asks of the
// parser (`dereference(fileUrl)`, then `$refs.paths()` and `$refs.get(url)` for the files the document
// reaches, all by file: URL), answered from the result the real parser produced when the bundle was built
// (scripts/build-msw-browser.ts, through model.ts's own dereferenceFile). So the contract model, and
// everything reading it, runs unchanged.
// The snapshot keeps the parser's sharing (contract/shared-graph.ts), so the decoded document has the same
// identities as in Node. Only the storefront document is embedded; the admin and webhooks documents serve
// Node's parts (the simulator).
import { snapshot } from 'sfc:embedded-contract';
import { assetsRoot } from './files.js';
import { pathToFileURL } from './node-builtins.js';
import { decodeShared } from '../../contract/shared-graph.js';

let decoded: { file: string; root: unknown; parts: Record<string, unknown> } | undefined;

function embedded() {
  decoded ??= { file: `${assetsRoot}/${snapshot.document}`, ...decodeShared(snapshot.root, snapshot.shared, snapshot.parts) };
  return decoded;
}

const urlOf = (name: string) => pathToFileURL(`${assetsRoot}/${name}`).href;

export class $RefParser {
  /** The files the document reaches, by file: URL (the embedded names under the assets root). */
  readonly $refs = {
    paths: (): string[] => Object.keys(embedded().parts).map(urlOf),
    get: (url: string): unknown => {
      const root = urlOf('');
      return url.startsWith(root) ? embedded().parts[decodeURIComponent(url.slice(root.length))] : undefined;
    },
  };

  async dereference(url: string): Promise<unknown> {
    const { file, root } = embedded();
    if (url !== pathToFileURL(file).href) throw new Error(`embedded contract: only ${file} is embedded in the sandbox's browser build, not ${url}`);
    return root;
  }
}

export default $RefParser;
