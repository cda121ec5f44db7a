// `npm run sign-examples [-- --check]`: writes the X-SVC-Signature of every message example in
// spec/asyncapi/messages/ as the contract computes it: `sha256=` + HMAC-SHA256 over the example body's
// bytes (JSON.stringify of its `payload`), keyed with `x-example-signing-secret`. Adding or editing an
// event example is then: edit the YAML, run this. `--check` changes nothing and fails on a stale one.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { documents } from './lib/repo.js';
import { signPayload } from '../src/webhooks/verify.js';

const messagesDir = path.join(path.dirname(documents.webhooks), 'messages');
const check = process.argv.includes('--check');
const root = YAML.parse(await readFile(documents.webhooks, 'utf8')) as { 'x-example-signing-secret'?: string };
const secret = root['x-example-signing-secret'];
if (!secret) {
  process.stderr.write(`sign-examples: ${path.relative(process.cwd(), documents.webhooks)} has no x-example-signing-secret; add one at the root.\n`);
  process.exit(2);
}

interface Example {
  name?: string;
  headers?: Record<string, string>;
  payload?: unknown;
}

async function payloadOf(file: string, example: Example): Promise<unknown> {
  const ref = (example.payload as { $ref?: string } | undefined)?.$ref;
  if (!ref) return example.payload;
  return YAML.parse(await readFile(path.resolve(path.dirname(file), ref), 'utf8'));
}

let changed = 0;
let stale = 0;
let total = 0;
for (const name of (await readdir(messagesDir)).filter((f) => f.endsWith('.yaml')).sort()) {
  const file = path.join(messagesDir, name);
  let text = await readFile(file, 'utf8');
  const message = YAML.parse(text) as { examples?: Example[] };
  let changedHere = 0;
  for (const example of message.examples ?? []) {
    const current = example.headers?.['X-SVC-Signature'];
    if (current === undefined) continue;
    total++;
    const wanted = signPayload(JSON.stringify(await payloadOf(file, example)), secret);
    if (current === wanted) continue;
    stale++;
    const where = `${path.relative(process.cwd(), file)} example ${example.name ?? '(unnamed)'}`;
    if (check) {
      process.stderr.write(`stale: ${where}: X-SVC-Signature does not sign its payload; run npm run sign-examples\n`);
      continue;
    }
    // A text replacement keeps the file's comments and layout; the signature is unique within the file.
    text = text.replace(current, wanted);
    changedHere++;
    process.stdout.write(`signed: ${where}\n`);
  }
  if (changedHere) await writeFile(file, text);
  changed += changedHere;
}
if (check && stale) process.exit(1);
process.stdout.write(`sign-examples: ${total} example signatures, ${check ? `${stale} stale` : `${changed} rewritten`}\n`);
