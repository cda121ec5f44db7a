// Every rule file is listed in its index, has its test file and one line in conformance/rules/README.md
// that agrees with the rule; every rule's source points at something that exists, and a stated rule never
// cites a part of the spec marked designed. The indexes are kept by hand (their order is the report's), so
// this is what makes a rule file they miss fail instead of silently never running.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { getPointer } from '../../../src/contract/json-pointer.js';
import { repoRoot } from '../../../scripts/lib/repo.js';
import type { Rule } from '../../../conformance/rules/model.js';
import { restRules } from '../../../conformance/rules/rest/index.js';
import { receiverRules, senderRules } from '../../../conformance/rules/webhooks/index.js';

const KINDS = { rest: restRules, webhooks: [...senderRules, ...receiverRules] } as Record<string, readonly Rule<never>[]>;
const rulesDir = path.join(repoRoot, 'conformance/rules');
const readme = readFileSync(path.join(rulesDir, 'README.md'), 'utf8').split('\n');

const ruleFiles = Object.keys(KINDS).flatMap((kind) =>
  readdirSync(path.join(rulesDir, kind))
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
    .map((f) => [`${kind}/${f}`, { kind, id: f.replace(/\.ts$/, '') }] as const),
);

/** The README cell of a source: `stated: section 6.2` or `designed: \`spec/...\``. */
const sourceCell = (rule: Rule<never>) => `${rule.source.kind}: ${rule.source.ref.startsWith('section') ? rule.source.ref : `\`${rule.source.ref}\``}`;

describe('every rule file', () => {
  it.each(ruleFiles)('%s is indexed, tested and documented', (_, { kind, id }) => {
    const rule = KINDS[kind].find((r) => r.id === id);
    expect(rule, `conformance/rules/${kind}/index.ts lists ${id}`).toBeDefined();
    expect(existsSync(path.join(repoRoot, `test/conformance/rules/${kind}/${id}.test.ts`)), `test/conformance/rules/${kind}/${id}.test.ts`).toBe(true);
    const lines = readme.filter((l) => l.startsWith(`| \`${id}\` |`));
    expect(lines, `one line for ${id} in conformance/rules/README.md`).toHaveLength(1);
    expect(lines[0]).toBe(`| \`${id}\` | ${rule!.target} | ${rule!.severity} | ${sourceCell(rule!)} | ${rule!.summary} |`);
  });
});

describe('every indexed rule', () => {
  const indexed = Object.entries(KINDS).flatMap(([kind, rules]) => rules.map((r) => [`${kind}/${r.id}`, { kind, rule: r }] as const));

  it.each(indexed)('%s has its own file, named by its id', (_, { kind, rule }) => {
    expect(existsSync(path.join(rulesDir, kind, `${rule.id}.ts`))).toBe(true);
    expect(rule.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(rule.target === 'rest').toBe(kind === 'rest');
  });

  it('is listed once, in the list of its target', () => {
    const ids = Object.values(KINDS).flatMap((rules) => rules.map((r) => r.id));
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(senderRules.filter((r) => r.target !== 'webhook-sender').map((r) => r.id)).toEqual([]);
    expect(receiverRules.filter((r) => r.target !== 'webhook-receiver').map((r) => r.id)).toEqual([]);
  });

  // Generated cases have no recording: a rule comparing with it must not be handed them.
  it.each(restRules.map((r) => [r.id, r] as const))('rest/%s says which exchanges it judges', (_, rule) => {
    expect(['replayed', 'generated', 'all']).toContain(rule.appliesTo);
  });

  it.each(indexed)('%s cites a source that exists and says the truth', (_, { rule }) => {
    const { kind, ref } = rule.source;
    if (kind === 'designed') expect(rule.severity).toBe('warning');
    if (ref.startsWith('section')) {
      // A section of the platform's interface document: only stated rules cite it.
      expect(ref).toMatch(/^section \d+(\.\d+)*( to \d+(\.\d+)*)?(, \d+(\.\d+)*)*$/);
      expect(kind).toBe('stated');
      return;
    }
    const [file, pointer] = ref.split('#');
    expect(existsSync(path.join(repoRoot, file)), ref).toBe(true);
    if (pointer === undefined) return;
    if (file.endsWith('.md')) {
      const anchors = readFileSync(path.join(repoRoot, file), 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('#'))
        .map((l) => l.replace(/^#+\s*/, '').toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-'));
      expect(anchors, ref).toContain(pointer);
      return;
    }
    const doc = YAML.parse(readFileSync(path.join(repoRoot, file), 'utf8'));
    expect(getPointer(doc, pointer), ref).toBeDefined();
    // An entry of the register of designed decisions: only designed rules cite it.
    if (file.startsWith('spec/inferred/')) {
      expect(kind, `${ref} is a designed decision`).toBe('designed');
      expect((getPointer(doc, pointer) as { id?: unknown }).id, ref).toMatch(/^[A-Z]{2}-\d{3}$/);
      return;
    }
    // The nearest x-contract-source marker at or above the node says what the spec claims about it.
    const segments = pointer.split('/').slice(1);
    let marker: unknown;
    for (let i = 0; i <= segments.length; i++) {
      const node = getPointer(doc, `/${segments.slice(0, i).join('/')}`) as Record<string, unknown> | undefined;
      if (node && typeof node === 'object' && 'x-contract-source' in node) marker = node['x-contract-source'];
    }
    if (kind === 'stated') expect(marker, `${ref} is marked designed`).not.toBe('inferred');
    // A designed rule points at what the spec designs: the place is marked inferred.
    else expect(marker, `${ref} is not marked designed (x-contract-source: inferred)`).toBe('inferred');
  });
});
