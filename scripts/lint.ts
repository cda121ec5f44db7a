// npm run lint [-- <file>...] [--format <fmt>]
// Lints the OpenAPI documents with Redocly (rules in redocly.yaml and lint/), the Arazzo workflows of the
// recorded certification scenarios (conformance/traffic/*.arazzo.yaml) with Redocly in the same run, and
// validates the AsyncAPI document with @asyncapi/cli, failing on any error or warning. With files, lints
// just those (the kind is read from the file's `openapi:`/`arazzo:`/`asyncapi:` key). Under GitHub Actions
// the output is annotations.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { documents, repoRoot, workbenchDocument } from './lib/repo.js';
import { asyncapiEnv, runTool } from './lib/run-tool.js';

type Kind = 'openapi' | 'asyncapi' | 'arazzo';

function parseArgs(argv: string[]) {
  const files: string[] = [];
  let format = process.env.GITHUB_ACTIONS === 'true' ? 'github-actions' : 'codeframe';
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--format') format = argv[++i];
    else if (argv[i] === '--help') {
      console.log('usage: npm run lint [-- <spec file>...] [--format codeframe|stylish|github-actions|json]');
      process.exit(0);
    } else files.push(path.resolve(argv[i]));
  }
  return { files, format };
}

async function kindOf(file: string): Promise<Kind> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    console.error(`lint: cannot read ${path.relative(process.cwd(), file)}: no such file`);
    process.exit(2);
  }
  if (/^asyncapi\s*:/m.test(text)) return 'asyncapi';
  if (/^openapi\s*:/m.test(text)) return 'openapi';
  if (/^arazzo\s*:/m.test(text)) return 'arazzo';
  console.error(`lint: ${path.relative(process.cwd(), file)} has no \`openapi:\`, \`asyncapi:\` or \`arazzo:\` key at the top level`);
  process.exit(2);
}

async function lintOpenApi(files: string[], format: string, config?: string): Promise<boolean> {
  // Redocly's own formats carry file:line:column; it exits 1 on errors (all rules are errors here).
  const args = ['lint', ...files, '--format', format, ...(config ? ['--config', config] : [])];
  const { code } = await runTool('redocly', args, { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } });
  return code === 0;
}

interface SpectralDiagnostic {
  code: string;
  message: string;
  severity: number; // 0 error, 1 warning, 2 info, 3 hint
  range: { start: { line: number; character: number } };
  source?: string;
}

/** `asyncapi validate` has no annotation format: its JSON diagnostics become GitHub `::error` lines. */
function githubAnnotations(output: string, file: string): string[] {
  const start = output.indexOf('[');
  if (start === -1) return [];
  let diagnostics: SpectralDiagnostic[];
  try {
    diagnostics = JSON.parse(output.slice(start));
  } catch {
    return [];
  }
  return diagnostics.map((d) => {
    const level = d.severity === 0 ? 'error' : d.severity === 1 ? 'warning' : 'notice';
    const source = path.relative(repoRoot, path.resolve(d.source ?? file));
    return `::${level} file=${source},line=${d.range.start.line + 1},col=${d.range.start.character + 1},title=${d.code}::${d.message.replace(/\r?\n/g, ' ')}`;
  });
}

async function lintAsyncApi(file: string, format: string): Promise<boolean> {
  // --fail-severity warn: a warning fails too. Never --suppressAllWarnings (it also turns off errors).
  const base = ['validate', file, '--fail-severity', 'warn', '--log-diagnostics'];
  if (format !== 'github-actions') {
    const { code } = await runTool('asyncapi', [...base, '--diagnostics-format', format === 'json' ? 'json' : 'stylish'], { env: asyncapiEnv() });
    return code === 0;
  }
  const result = await runTool('asyncapi', [...base, '--diagnostics-format', 'json'], { env: asyncapiEnv(), capture: true });
  const annotations = githubAnnotations(result.stdout, file);
  for (const line of annotations) console.log(line);
  if (result.code !== 0 && annotations.length === 0) process.stderr.write(result.stderr || result.stdout);
  return result.code === 0;
}

/** The Arazzo workflows of the recorded scenarios (conformance/rest/make-arazzo.ts writes them). */
async function arazzoFiles(): Promise<string[]> {
  const dir = path.join(repoRoot, 'conformance/traffic');
  return (await readdir(dir)).filter((f) => f.endsWith('.arazzo.yaml')).sort().map((f) => path.join(dir, f));
}

const { files, format } = parseArgs(process.argv.slice(2));
const targets = files.length > 0 ? files : [documents.storefront, documents.admin, workbenchDocument, ...(await arazzoFiles()), documents.webhooks];
const byKind: Record<Kind, string[]> = { openapi: [], asyncapi: [], arazzo: [] };
for (const file of targets) byKind[await kindOf(file)].push(file);
const { openapi, arazzo, asyncapi } = byKind;

let ok = true;
if (openapi.length) {
  console.log(`lint: redocly lint ${openapi.map((f) => path.relative(repoRoot, f)).join(' ')}`);
  ok = (await lintOpenApi(openapi, format)) && ok;
}
if (arazzo.length) {
  // Arazzo has its own config (lint/arazzo.yaml): redocly.yaml's OpenAPI rules would be reported as unused.
  console.log(`lint: redocly lint --config lint/arazzo.yaml ${arazzo.map((f) => path.relative(repoRoot, f)).join(' ')}`);
  ok = (await lintOpenApi(arazzo, format, path.join(repoRoot, 'lint/arazzo.yaml'))) && ok;
}
for (const file of asyncapi) {
  console.log(`lint: asyncapi validate ${path.relative(repoRoot, file)}`);
  ok = (await lintAsyncApi(file, format)) && ok;
}
console.log(ok ? 'lint: all documents clean (0 errors, 0 warnings)' : 'lint: problems found (see above)');
process.exit(ok ? 0 : 1);
