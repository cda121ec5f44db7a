// The package root as a bundler sees it (esbuild, code splitting on): the code that loads with the
// client holds no validator, and each operation's validators are a chunk of their own, fetched by
// the dynamic import a client with validation runs on first use.
import { build, type Metafile } from 'esbuild';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { loaders as storefrontLoaders } from '../../generated/validators/storefront/index.js';

const entry = 'src/index.ts';
let metafile: Metafile;

/** The outputs that load with `from`: itself and, transitively, the chunks it imports statically. */
function staticClosure(from: string): string[] {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const output = stack.pop()!;
    if (seen.has(output)) continue;
    seen.add(output);
    for (const imported of metafile.outputs[output].imports) if (imported.kind === 'import-statement' && !imported.external) stack.push(imported.path);
  }
  return [...seen];
}

beforeAll(async () => {
  const result = await build({
    entryPoints: [path.join(repoRoot, entry)],
    absWorkingDir: repoRoot,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['sfc-source'],
    outdir: path.join(repoRoot, 'bench/tmp/bundle-test'),
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  metafile = result.metafile;
});

describe(`${entry} bundled with code splitting`, () => {
  it('loads no validator module and no validation code with the client', () => {
    const entryOutput = Object.keys(metafile.outputs).find((o) => metafile.outputs[o].entryPoint === entry)!;
    const inputs = staticClosure(entryOutput).flatMap((o) => Object.keys(metafile.outputs[o].inputs));
    expect(inputs).toContain('src/client/storefront.ts');
    expect(inputs.filter((i) => i.startsWith('generated/validators/') || i.startsWith('src/validators/') || i.includes('node_modules/ajv'))).toEqual([]);
    // Nor the client's validation code and the route -> operationId table only it reads.
    expect(inputs.filter((i) => /^src\/client\/(validation|response-check|storefront-validation|admin-validation)\.ts$/.test(i) || i === 'generated/operations/routes.ts')).toEqual([]);
  });

  it('puts each operation\'s validators in a chunk reached only by a dynamic import', () => {
    const chunkOf = (input: string) => Object.keys(metafile.outputs).filter((o) => input in metafile.outputs[o].inputs);
    const dynamicTargets = new Set(Object.values(metafile.outputs).flatMap((o) => o.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path)));
    for (const operationId of Object.keys(storefrontLoaders)) {
      const chunks = chunkOf(`generated/validators/storefront/${operationId}.ts`);
      expect(chunks, operationId).toHaveLength(1);
      expect(dynamicTargets.has(chunks[0]), operationId).toBe(true);
      // Its own chunk: no other operation's validators ride along.
      const others = Object.keys(metafile.outputs[chunks[0]].inputs).filter((i) => i.startsWith('generated/validators/') && !i.endsWith(`/${operationId}.ts`));
      expect(others, operationId).toEqual([]);
    }
  });
});
