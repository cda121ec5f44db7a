import { describe, expect, it } from 'vitest';
import { senderEnvelopeSchema } from '../../../../conformance/rules/webhooks/sender-envelope-schema.js';
import type { Finding } from '../../../../conformance/rules/model.js';
import { judge } from '../../../../conformance/rules/run.js';
import { view, type View } from '../view.js';
import { webhookEvents } from '../../../../generated/webhooks/catalog.js';
import { exampleEnvelope } from '../../../../conformance/vectors/webhook-fixtures.js';
import { body, defectTable, delivery, resign, sender, type Change } from './fixtures.js';

/** The catalog's example of `event` (or order.created's, renamed, for an event outside the catalog), changed and re-signed. */
function resignedAs(event: string, change: (b: Record<string, any>) => void): Change {
  return (d) => {
    const example = exampleEnvelope(webhookEvents.some((e) => e.event === event) ? event : 'order.created') as unknown as Record<string, any>;
    example.event = example.payload.event = event;
    d.body = example;
    change(d.body);
    resign(d);
  };
}

// Every one-change delivery of the fixtures: this rule names its own defects and no other.
const cases = defectTable<View>('sender-envelope-schema', {
  'is_test a string (re-signed)': ['/is_test: must be boolean (got string "false")'],
}, []);

describe('sender-envelope-schema', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderEnvelopeSchema, given)).toEqual(want);
  });

  it('is skipped when no delivery arrived, saying which rule reports it', () => {
    expect(view(senderEnvelopeSchema, sender([]))).toBe('skipped');
    expect(senderEnvelopeSchema.check(sender([]))).toEqual({ skipped: 'no delivery arrived (see sender-delivers)' });
    expect(view(senderEnvelopeSchema, sender([delivery()]))).toEqual([]);
  });
});

describe('sender-envelope-schema findings', () => {
  it('a body that is not JSON says why', () => {
    const notJson = { ...delivery(), body: undefined, parseError: 'Unexpected token' };
    expect(judge(senderEnvelopeSchema, sender([notJson]))).toEqual([{ subject: 'delivery #1 (delivered)', severity: 'error', message: 'body is not JSON (Unexpected token)' }]);
    expect(view(senderEnvelopeSchema, sender([{ ...notJson, parseError: undefined }]))).toEqual(['body is not JSON (unparseable)']);
  });

  it('payload.event and payload.event_id must repeat the envelope (errors: section 2.17)', () => {
    expect(judge(senderEnvelopeSchema, sender([delivery(body((b) => (b.payload.event = 'product.created')))]))).toEqual([{ subject: 'delivery #1 (delivered, order.created, dlv_01JPKZ9E8JEFCEGA0DBQKGKQBF)', severity: 'error', message: 'payload.event differs from event' }]);
    expect(judge(senderEnvelopeSchema, sender([delivery(body((b) => (b.payload.event_id = 'evt_other')))]))).toEqual([{ subject: 'delivery #1 (delivered, order.created, dlv_01JPKZ9E8JEFCEGA0DBQKGKQBF)', severity: 'error', message: 'payload.event_id differs from event_id' }]);
    expect(view(senderEnvelopeSchema, sender([delivery(body((b) => ((b.payload.event_id = 'evt_other'), (b.payload.event = 'product.created'))))]))).toEqual([
      'payload.event differs from event',
      'payload.event_id differs from event_id',
    ]);
  });

  it('no event name, or an envelope field of the wrong type, is an error', () => {
    expect(judge(senderEnvelopeSchema, sender([delivery(body((b) => delete b.event))]))).toEqual([{ subject: 'delivery #1 (delivered, dlv_01JPKZ9E8JEFCEGA0DBQKGKQBF)', severity: 'error', message: '/event: required property "event" is missing (got nothing)' }]);
  });
});

// Section 6.5 leaves the complete list of events and their payload.properties models open: only the events
// section 6.3 names (order.created, product.created) have a stated model. A defect in a designed model, or a
// delivery of an event outside the catalog, is advice, and says why; the envelope stays an error.
describe('issue 38: sender-envelope-schema judges as errors only what the contract states', () => {
  const of = (event: string, change: (b: Record<string, any>) => void = () => {}) => {
    const d = delivery(resignedAs(event, change));
    return { d, subject: `delivery #1 (delivered, ${event}, ${d.body && (d.body as Record<string, any>).delivery_id})` };
  };

  it('a valid delivery of a designed event passes', () => {
    expect(judge(senderEnvelopeSchema, sender([of('cart.updated').d]))).toEqual([]);
  });

  it('a defect in the model of an event the document names (order.created) is an error', () => {
    const { d, subject } = of('order.created', (b) => (b.payload.properties.order_number = 7));
    expect(judge(senderEnvelopeSchema, sender([d]))).toEqual([{ subject, severity: 'error', message: expect.stringMatching(/^\/payload\/properties\/order_number: must be string/) }]);
  });

  it('a defect in a designed model (cart.updated) is advice that says so', () => {
    const { d, subject } = of('cart.updated', (b) => (b.payload.properties.id = 7));
    const [finding, ...rest] = judge(senderEnvelopeSchema, sender([d])) as Finding[];
    expect(rest).toEqual([]);
    expect(finding).toEqual({ subject, severity: 'warning', message: expect.stringMatching(/^\/payload\/properties\/id: must be string \(got number 7\) \(advice: the platform's document does not state the model of cart\.updated\)$/) });
    expect(judge(senderEnvelopeSchema, sender([d]), { strict: true })).toEqual([{ ...finding, severity: 'error' }]);
  });

  it('a delivery of an event outside the catalog is advice', () => {
    const { d, subject } = of('order.archived');
    expect(judge(senderEnvelopeSchema, sender([d]))).toEqual([
      { subject, severity: 'warning', message: '/event: unknown event "order.archived" (not in the AsyncAPI catalog) (advice: the platform\'s document does not state the model of order.archived)' },
    ]);
  });

  it('an envelope defect of a designed event is still an error', () => {
    const { d, subject } = of('cart.updated', (b) => (b.is_test = 'no'));
    expect(judge(senderEnvelopeSchema, sender([d]))).toEqual([{ subject, severity: 'error', message: '/is_test: must be boolean (got string "no")' }]);
  });

  it('one line per schema error, with what came when known', () => {
    expect(view(senderEnvelopeSchema, sender([delivery(body((b) => delete b.event_id))]))).toEqual(['/event_id: required property "event_id" is missing (got nothing)']);
    expect(view(senderEnvelopeSchema, sender([delivery(body((b) => (b.timestamp = 3)))]))).toEqual(['/timestamp: must be string (got number 3)']);
  });
});
