// Every `pattern` in spec/ (OpenAPI and AsyncAPI alike; Redocly's contract/portable-pattern rule sees only
// the OpenAPI documents) is in the subset ECMA-262, Java and dk.brics.automaton read alike. The checker
// itself is the lint rule's; here it also meets a few patterns outside the subset.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
// @ts-expect-error: a plain-JS Redocly rule without types
import { portablePatternProblems } from '../../lint/rules/portable-pattern.js';

const check = portablePatternProblems as (pattern: string) => string[];

async function patternsInSpec(): Promise<Array<[string, string]>> {
  const found: Array<[string, string]> = [];
  const walk = (node: unknown, where: string): void => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pattern' && typeof value === 'string') found.push([where, value]);
      else if (key === 'patternProperties' && value && typeof value === 'object') Object.keys(value).forEach((k) => found.push([where, k]));
      walk(value, where);
    }
  };
  const files = (await readdir(path.join(repoRoot, 'spec'), { recursive: true })).filter((f) => f.endsWith('.yaml')).sort();
  for (const file of files) walk(parse(await readFile(path.join(repoRoot, 'spec', file), 'utf8')), `spec/${file}`);
  return found;
}

const patterns = await patternsInSpec();

describe('patterns in spec/ are portable', () => {
  it('finds the patterns', () => expect(patterns.length).toBeGreaterThan(10));
  it.each(patterns)('%s: %j', (_file, pattern) => expect(check(pattern)).toEqual([]));
});

describe('the checker refuses what engines read differently', () => {
  it.each([
    ['a bare quote', '^"a"$', /bare "/],
    ['\\s', '^\\s*$', /\\s \(shorthand/],
    ['\\d', '^\\d+$', /\\d \(shorthand/],
    ['\\w', '^\\w+$', /\\w \(shorthand/],
    ['\\b', '^Bearer\\b', /\\b \(word boundary/],
    ['\\t', '^[\\t ]*$', /\\t \(letter escape/],
    ['a backreference', '^(a)\\1$', /\\1 \(backreference/],
    ['a non-capturing group', '^(?:a)$', /\(\? group/],
    ['a lookahead', '^(?=a)a$', /\(\? group/],
    ['a lazy quantifier', '^a+?$', /lazy or possessive/],
    ['a dot', '^a.b$', /^\. \(/],
    ['an inner anchor', '^a$|^b$', /\$ other than at the end/],
    ['no anchors', 'abc', /not anchored at the start/],
    ['a bare @', '^a@b$', /bare @/],
    ['an identity escape', '^\\@$', /identity escape/],
    ['&& in a class', '^[a-z&&b]$', /&&/],
    ['{,n}', '^a{,2}$', /not a quantifier/],
    ['an empty alternative', '^(a|)$', /empty alternative/],
  ])('%s', (_name, pattern, problem) => {
    expect(check(pattern).some((p) => problem.test(p)), check(pattern).join(' | ')).toBe(true);
  });

  it('accepts the portable spelling of the same things', () => {
    for (const p of ['^["]a["]$', '^[ \t\n\r]*$', '^[0-9]+$', '^Bearer( [ -~]*)?$', '^(a)(b|c)?$', '^a[.]b\\.c$', '^a[@]b$', '^[a-z-]{1,3}$', '^[\\-\\]]$']) {
      expect(check(p), p).toEqual([]);
    }
  });
});
