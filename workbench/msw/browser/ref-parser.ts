// @apidevtools/json-schema-ref-parser in the sandbox's browser build: what contract/model.ts asks of the
// parser (`dereference(file)`, then `$refs.paths()` and `$refs.get(path)` for the files the document
// reaches), answered from the result the real parser produced when the bundle was built
// (scripts/build-msw-browser.ts). So the contract model, and everything reading it, runs unchanged.
// The snapshot keeps the parser's sharing (shared-graph.ts), so the decoded document has the same
// identities as in Node. Only the storefront document is embedded; the admin and webhooks documents serve
// Node's parts (the simulator).
import { snapshot } from 'sfc:embedded-contract';
import { assetsRoot } from './files.js';
import { decodeShared } from './shared-graph.js';

let decoded: { file: string; root: unknown; parts: Record<string, unknown> } | undefined;

function embedded() {
  decoded ??= { file: `${assetsRoot}/${snapshot.document}`, ...decodeShared(snapshot.root, snapshot.shared, snapshot.parts) };
  return decoded;
}

export class $RefParser {
  /** The files the document reaches, by absolute path (the embedded names under the assets root). */
  readonly $refs = {
    paths: (): string[] => Object.keys(embedded().parts).map((name) => `${assetsRoot}/${name}`),
    get: (file: string): unknown => (file.startsWith(`${assetsRoot}/`) ? embedded().parts[file.slice(assetsRoot.length + 1)] : undefined),
  };

  async dereference(file: string): Promise<unknown> {
    const { file: known, root } = embedded();
    if (file !== known) throw new Error(`embedded contract: only ${known} is embedded in the sandbox's browser build, not ${file}`);
    return root;
  }
}

export default $RefParser;
