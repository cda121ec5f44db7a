// issue 37 item 15: `npm run bundle` writes plain ASCII. Specmatic refuses a whole JSON document holding a
// raw C1 control character ("special characters are not allowed"), and the custom header value pattern
// holds U+0080; escaped as \u0080 the same document loads. The real script runs once into a temporary
// folder; every file it writes is checked byte by byte, and reads back to the spec's own values.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, repoRoot } from '../../scripts/lib/repo.js';
import { asciiJson } from '../../scripts/lib/ascii-json.js';
import { run } from '../helpers/run.js';
import { hangGuard } from '../helpers/hang-guard.js';

const out = mkdtempSync(path.join(os.tmpdir(), 'bundle-ascii-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The first byte outside LF and printable ASCII, or undefined. */
function firstNonAscii(bytes: Buffer): { at: number; byte: number } | undefined {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== 0x0a && (b < 0x20 || b > 0x7e)) return { at: i, byte: b };
  }
  return undefined;
}

describe('issue 37 item 15: the bundles are plain ASCII', () => {
  let files: string[];
  beforeAll(async () => {
    const result = await run(process.execPath, ['--import', 'tsx', 'scripts/bundle.ts', '--out', out], { cwd: repoRoot });
    expect(result.code, result.output).toBe(0);
    files = readdirSync(out).sort();
  }, hangGuard(180_000));

  it('item 15: writes a bundled and a dereferenced file for every document', () => {
    expect(files).toEqual(Object.keys(documents).flatMap((name) => [`${name}.bundled.json`, `${name}.dereferenced.json`]).sort());
  });

  it('item 15: every byte of every bundle is LF or printable ASCII', () => {
    for (const file of files) expect(firstNonAscii(readFileSync(path.join(out, file))), file).toBeUndefined();
  });

  it('item 15: the escapes read back to the spec\'s values: the custom header value pattern keeps its tab, U+0080 and U+00FF', () => {
    const source = parse(readFileSync(path.join(repoRoot, 'spec/openapi/components/schemas/CreateWebhookRequest.yaml'), 'utf8')).properties.custom_headers.additionalProperties.pattern as string;
    expect(source).toContain('\u0080');
    const bundled = JSON.parse(readFileSync(path.join(out, 'admin.bundled.json'), 'utf8'));
    expect(bundled.components.schemas.CreateWebhookRequest.properties.custom_headers.additionalProperties.pattern).toBe(source);
    expect(readFileSync(path.join(out, 'admin.bundled.json'), 'utf8')).toContain('\\u0080');
  });

  it('item 15: asciiJson escapes every other character and JSON.parse gives the value back', () => {
    const value = { s: 'tab\t nel\u0085 del\u007f \u00e9 \u20ac \u{1F600} lone\ud800 nul\u0000 "q" \\', n: [1, 2.5, null, true] };
    const text = asciiJson(value);
    expect(firstNonAscii(Buffer.from(text, 'utf8'))).toBeUndefined();
    expect(JSON.parse(text)).toEqual(value);
    // Without escapes to make, the text is JSON.stringify's.
    expect(asciiJson({ a: 'plain' })).toBe(JSON.stringify({ a: 'plain' }, null, 2));
  });
});
