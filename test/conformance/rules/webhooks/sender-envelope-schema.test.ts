import { describe, expect, it } from 'vitest';
import { senderEnvelopeSchema } from '../../../../conformance/rules/webhooks/sender-envelope-schema.js';
import { judge } from '../../../../conformance/rules/run.js';
import { skipReason, view, type View } from '../view.js';
import { body, defectTable, delivery, sender } from './fixtures.js';

// Every one-change delivery of the fixtures: this rule names its own defects and no other.
const cases = defectTable<View>('sender-envelope-schema', {
  'is_test a string (re-signed)': ['/is_test: must be boolean (got string "false")'],
}, []);

describe('sender-envelope-schema', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderEnvelopeSchema, given)).toEqual(want);
  });

  it('is skipped when no delivery arrived', () => {
    expect(view(senderEnvelopeSchema, sender([]))).toBe('skipped');
    expect(view(senderEnvelopeSchema, sender([delivery()]))).toEqual([]);
  });
});

describe('sender-envelope-schema findings', () => {
  it('a body that is not JSON says why', () => {
    const notJson = { ...delivery(), body: undefined, parseError: 'Unexpected token' };
    expect(judge(senderEnvelopeSchema, sender([notJson]))).toEqual([{ subject: 'delivery #1 (delivered)', severity: 'error', message: 'body is not JSON (Unexpected token)' }]);
    expect(view(senderEnvelopeSchema, sender([{ ...notJson, parseError: undefined }]))).toEqual(['body is not JSON (unparseable)']);
  });

  it('payload.event and payload.event_id must repeat the envelope', () => {
    // The event's own schema pins payload.event to the event's name.
    expect(judge(senderEnvelopeSchema, sender([delivery(body((b) => (b.payload.event = 'product.created')))]))).toEqual([
      { subject: 'delivery #1 (delivered, order.created, dlv_01JPKZ9E8JEFCEGA0DBQKGKQBF)', severity: 'error', message: '/payload/event: must equal "order.created" (got string "product.created")' },
    ]);
    expect(judge(senderEnvelopeSchema, sender([delivery(body((b) => (b.payload.event_id = 'evt_other')))]))).toEqual([{ subject: 'delivery #1 (delivered, order.created, dlv_01JPKZ9E8JEFCEGA0DBQKGKQBF)', severity: 'error', message: 'payload.event_id differs from event_id' }]);
  });

  it('an event the catalog does not list, or no event name, is a schema error', () => {
    expect(view(senderEnvelopeSchema, sender([delivery(body((b) => (b.event = b.payload.event = 'order.archived')))]))).toEqual(['/event: unknown event "order.archived" (not in the AsyncAPI catalog)']);
    expect(view(senderEnvelopeSchema, sender([delivery(body((b) => delete b.event))]))).toEqual(['/event: must be a string naming the event (got undefined)']);
  });

  it('one line per schema error, with what came when known', () => {
    expect(view(senderEnvelopeSchema, sender([delivery(body((b) => delete b.event_id))]))).toEqual(['/event_id: required property "event_id" is missing (got nothing)']);
    expect(view(senderEnvelopeSchema, sender([delivery(body((b) => (b.timestamp = 3)))]))).toEqual(['/timestamp: must be string (got number 3)']);
  });
});
