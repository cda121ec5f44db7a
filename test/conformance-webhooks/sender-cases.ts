// The fake senders certified by sender.test.ts and sender-faults.test.ts (two files so vitest runs them on
// two workers): one following the contract, and one faulty sender per sender rule. Rules on designed parts
// of the contract only advise, so their faulty sender is certified under --strict (strict: true).
import type { SenderFault } from './fake-sender.js';

// Time-out 150 ms, retries after 25 ms, 150 ms, 1.5 s: room for the stalls of a busy machine (the senders
// run in this process, so a stall delays them too; at 60 ms time-outs a 40 ms stall leaves the certifier
// unable to tell whether a sender saw its answer in time, and it then skips instead of judging).
export const TIME_SCALE = 0.005;

export type SenderCase = [string, { fault?: SenderFault; rule?: string; strict?: boolean }];

export const CASES: SenderCase[] = [
  ['a sender following the contract', {}],
  ['an event never delivered', { fault: 'drops-first-delivery', rule: 'sender-delivers' }],
  ['deliveries sent with PUT', { fault: 'sends-put', rule: 'sender-method-post' }],
  ['its own User-Agent', { fault: 'own-user-agent', rule: 'sender-user-agent' }],
  ['Content-Type text/plain (advice: fails under --strict)', { fault: 'text-plain-content-type', rule: 'sender-content-type', strict: true }],
  ['custom headers left out', { fault: 'drops-custom-headers', rule: 'sender-custom-headers' }],
  ['a test delivery with is_test false', { fault: 'test-flag-false', rule: 'sender-test-delivery' }],
  ['a retry after a 2XX', { fault: 'retries-after-success', rule: 'sender-no-retry-after-success' }],
  ['one retry too many', { fault: 'one-retry-too-many', rule: 'sender-retry-attempts' }],
  ['waiting past the time-out', { fault: 'waits-past-the-time-out', rule: 'sender-timeout-is-failure' }],
  ['signature over re-serialized JSON', { fault: 'signs-reserialized-json', rule: 'sender-signature-raw-body' }],
  ['uppercase hex', { fault: 'uppercase-hex', rule: 'sender-signature-format' }],
  ['a reused delivery_id', { fault: 'reuses-delivery-id', rule: 'sender-delivery-id-unique' }],
  ['an event_id that changes on retry', { fault: 'new-event-id-on-retry', rule: 'sender-event-id-stable' }],
  ['a wrong retry schedule', { fault: 'wrong-retry-schedule', rule: 'sender-retry-schedule' }],
  ['retries after a 410', { fault: 'retries-after-410', rule: 'sender-gone-stops' }],
  ['a missing X-SVC-Event-ID', { fault: 'no-event-id-header', rule: 'sender-identity-headers' }],
  ['an envelope field of the wrong type', { fault: 'timestamp-wrong-type', rule: 'sender-envelope-schema' }],
];

/** The first half runs in sender.test.ts, the rest in sender-faults.test.ts. */
export const FIRST_HALF = CASES.slice(0, Math.ceil(CASES.length / 2));
export const SECOND_HALF = CASES.slice(Math.ceil(CASES.length / 2));
