// The second half of the fake senders (sender-cases.ts), in a file of its own so it runs on another worker;
// and the check that the cases hold one faulty sender for every sender rule.
import { describe, expect, it } from 'vitest';
import { senderRules } from '../../conformance/rules/webhooks/index.js';
import { certifyFakeSender } from './certify-fake-sender.js';
import { CASES, SECOND_HALF } from './sender-cases.js';

describe('sender certification: fake senders (second half)', () => {
  it('the cases hold a faulty sender for every sender rule', () => {
    expect(new Set(CASES.flatMap(([, c]) => (c.rule ? [c.rule] : [])))).toEqual(new Set(senderRules.map((r) => r.id)));
  });

  it.each(SECOND_HALF)('%s', certifyFakeSender);
});
