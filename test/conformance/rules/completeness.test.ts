// Every rule has its own file named by its id, in the folder of its kind.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { restRules } from '../../../conformance/rules/rest/index.js';
import { receiverRules, senderRules } from '../../../conformance/rules/webhooks/index.js';

describe('rule files and docs', () => {
  it('every webhook rule has its own file named by its id and one README line', () => {
    const readme = readFileSync(new URL('../../../conformance/rules/webhooks/README.md', import.meta.url), 'utf8');
    for (const rule of [...senderRules, ...receiverRules]) {
      expect(existsSync(new URL(`../../../conformance/rules/webhooks/${rule.id}.ts`, import.meta.url))).toBe(true);
      expect(readme.split('\n').filter((l) => l.startsWith(`- \`${rule.id}\`:`))).toHaveLength(1);
    }
  });

  it('every REST rule has its own file named by its id', () => {
    for (const rule of restRules) expect(existsSync(new URL(`../../../conformance/rules/rest/${rule.id}.ts`, import.meta.url))).toBe(true);
  });
});
