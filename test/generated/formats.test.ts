// The formats the generated validators check inline (scripts/generate/validator-formats.ts) give
// ajv-formats' "full" verdicts, apart from the one documented leap-second difference.
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { describe, expect, it } from 'vitest';
import { fastFormats } from '../../scripts/generate/validator-formats.js';

const cases: Record<string, string[]> = {
  date: ['2024-02-29', '2023-02-29', '2000-02-29', '1900-02-29', '2025-06-31', '2025-06-30', '2025-12-31', '2025-00-10', '2025-13-01', '25-01-01', '2025-1-01', ' 2025-01-01', '2025-01-01\n'],
  'date-time': [
    '2025-10-10T00:00:00+05:30', '2024-02-29T10:00:00Z', '2023-02-29T10:00:00Z', '2025-13-01T00:00:00Z', '2025-04-31T00:00:00Z',
    '2025-04-30t00:00:00z', '2025-04-30 00:00:00Z', '2025-04-30T24:00:00Z', '2025-04-30T23:60:00Z', '2025-04-30T23:59:60Z',
    '2025-04-30T10:00:00', '2025-04-30T10:00:00+0530', '2025-04-30T10:00:00+05', '2025-04-30T10:00:00.123456Z', '2025-04-30T10:00:00.Z',
    '1900-02-29T00:00:00Z', '2000-02-29T00:00:00Z', '2025-04-30T10:00:00+24:00', '2025-04-30T10:00:00+05:60', '2025-04-30', 'x', '',
  ],
  uri: [
    'https://cdn.example/demo-store/images/matte-lipstick-ruby-red-64.webp', 'https://cdn.example/a b', 'https://cdn.example/a%20b',
    'https://cdn.example/a%2', 'https://x/%zz', 'mailto:x@y.z', 'urn:isbn:0451450523', '/relative', 'relative', '1http://x',
    'https://[::1]:80/x?y=1#z', 'http://x/ä', 'https://x/{id}', 'https://x/a|b', 'https://x/a"b', 'https://x/a\\b', 'https://x/a^b', 'https://x/a<b>',
  ],
};

function full(format: string, value: string): boolean {
  const f = (fullFormats as Record<string, any>)[format];
  return typeof f === 'function' ? f(value) : f instanceof RegExp ? f.test(value) : f.validate(value);
}

describe('inline formats', () => {
  it('cover exactly the formats the spec uses', () => {
    expect(Object.keys(fastFormats).sort()).toEqual(['date', 'date-time', 'uri']);
  });

  it.each(Object.entries(cases).flatMap(([format, values]) => values.map((value) => [format, value] as const)))('%s %j: same verdict as ajv-formats full', (format, value) => {
    expect(fastFormats[format].test(value)).toBe(full(format, value));
  });

  it('accepts a leap second at any minute, where ajv-formats full wants 23:59 UTC (the documented difference)', () => {
    expect(fastFormats['date-time'].test('2025-04-30T10:59:60Z')).toBe(true);
    expect(full('date-time', '2025-04-30T10:59:60Z')).toBe(false);
  });

  // Exponential backtracking would not finish within the test's timeout.
  it('rejects a long invalid URI (no catastrophic backtracking)', () => {
    expect(fastFormats.uri.test(`https://x/${'a%20'.repeat(20_000)} `)).toBe(false);
  });
});
