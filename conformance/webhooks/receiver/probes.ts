// Every probe the receiver certifier sends, in order, with the answer it expects. Valid deliveries come
// first (one per event type of the catalog), the oversized body last (a receiver may close the
// connection on it).
import { webhookEvents } from 'storefront-contract';
import type { Expectation, ProbeGroup } from '../observations.js';
import { exampleEnvelope, replayOf, signed, type Envelope } from './deliveries.js';
import type { ProbeRequest } from './send.js';
import { wireVectors } from './vectors.js';

export interface PlannedProbe {
  group: ProbeGroup;
  name: string;
  expect: Expectation;
  eventId?: string;
  probe: ProbeRequest;
}

export interface ProbePlan {
  probes: PlannedProbe[];
  duplicateEventIds: string[];
  testEventIds: string[];
}

const ORDER_EVENT = 'order.created';
const UPDATE_EVENT = 'order.updated';
/** An event name no catalog of this contract version lists (and the platform could add). */
export const UNKNOWN_EVENT = 'order.archived';

/** Compact JSON with one string written with a \u escape: same value, other bytes. */
function withUnicodeEscape(body: Envelope): Buffer {
  const text = JSON.stringify(body);
  const needle = `"event":"${body.event}"`;
  return Buffer.from(text.replace(needle, `"event":"${body.event.replace('.', '\\u002e')}"`), 'utf8');
}

export function planProbes(secret: string, options: { oversizeBytes: number }): ProbePlan {
  const probes: PlannedProbe[] = [];
  const add = (group: ProbeGroup, name: string, expect: Expectation, probe: ProbeRequest, eventId?: string) => probes.push({ group, name, expect, probe, eventId });

  for (const entry of webhookEvents) {
    const body = exampleEnvelope(entry.event);
    add('valid', `valid ${entry.event}`, '2XX', signed(body, secret), body.event_id);
  }

  // Legitimate bytes a JSON.stringify round trip would change: a raw-bytes verifier accepts them.
  const indented = exampleEnvelope(ORDER_EVENT);
  add('raw-bytes', 'valid delivery sent as indented JSON (signed over those bytes)', '2XX', signed(indented, secret, Buffer.from(JSON.stringify(indented, null, 2))), indented.event_id);
  const escaped = exampleEnvelope(ORDER_EVENT);
  add('raw-bytes', 'valid delivery with a \\u escape in a string (signed over those bytes)', '2XX', signed(escaped, secret, withUnicodeEscape(escaped)), escaped.event_id);
  // Forgeries signed over a re-serialisation of what is sent: only a re-serialising verifier accepts them.
  const forged = exampleEnvelope(ORDER_EVENT);
  const compact = signed(forged, secret);
  add('raw-bytes', 'signature over compact JSON, body sent indented', 'non-2XX', { body: Buffer.from(JSON.stringify(forged, null, 2)), headers: compact.headers }, forged.event_id);
  const forged2 = exampleEnvelope(ORDER_EVENT);
  add('raw-bytes', 'signature over compact JSON, body sent with a \\u escape', 'non-2XX', { body: withUnicodeEscape(forged2), headers: signed(forged2, secret).headers }, forged2.event_id);

  for (const v of wireVectors(secret)) add(v.group, v.name, 'non-2XX', v.probe);

  // Duplicate (the same bytes again) and replay (same event, new delivery_id): 2XX, processed once.
  const dup = exampleEnvelope(ORDER_EVENT);
  const first = signed(dup, secret);
  add('duplicate', 'original delivery', '2XX', first, dup.event_id);
  add('duplicate', 'duplicate (the same bytes again)', '2XX', first, dup.event_id);
  add('duplicate', 'replay (same event_id, new delivery_id)', '2XX', replayOf(dup, secret).probe, dup.event_id);

  // Out of order: the newer update first, then an older one (section 6.1.2 of the platform's interface document: order by timestamp, still 2XX).
  const newer = exampleEnvelope(UPDATE_EVENT);
  const older = exampleEnvelope(UPDATE_EVENT);
  older.payload.properties = structuredClone(newer.payload.properties);
  newer.payload.timestamp = new Date().toISOString();
  older.payload.timestamp = new Date(Date.now() - 3600_000).toISOString();
  add('out-of-order', 'newer update', '2XX', signed(newer, secret), newer.event_id);
  add('out-of-order', 'older update after the newer one', '2XX', signed(older, secret), older.event_id);

  // What a later contract version may send: fields this version does not name (register WH-002: receivers
  // ignore them; advised by receiver-tolerates-unknown), and an event this catalog does not list (the
  // complete list is open, section 6.5): acknowledging or refusing it is the receiver's choice, but a 410
  // would disable the subscription (receiver-never-410).
  const extra = exampleEnvelope(ORDER_EVENT);
  extra.api_version = '1.1';
  extra.payload.region = 'ap-south-1';
  Object.assign(extra.payload.properties, { loyalty_tier: 'gold', fulfilment_notes: { gift_wrap: true } });
  add('unknown', 'valid delivery with fields this contract version does not name', '2XX', signed(extra, secret), extra.event_id);
  const future = exampleEnvelope(ORDER_EVENT);
  future.event = future.payload.event = UNKNOWN_EVENT;
  add('unknown', `valid delivery of an event the catalog does not list (${UNKNOWN_EVENT})`, 'any', signed(future, secret), future.event_id);

  const test = exampleEnvelope(ORDER_EVENT);
  test.is_test = true;
  add('test', 'test delivery (is_test true)', '2XX', signed(test, secret), test.event_id);

  // Oversized: a valid, signed envelope padded with JSON whitespace (still valid JSON, still authentic).
  const big = exampleEnvelope(ORDER_EVENT);
  const raw = Buffer.from(JSON.stringify(big));
  const padded = Buffer.concat([raw, Buffer.alloc(Math.max(0, options.oversizeBytes - raw.length), 0x20)]);
  add('oversize', `valid signed delivery of ${padded.length} bytes`, '413', signed(big, secret, padded), big.event_id);

  return { probes, duplicateEventIds: [dup.event_id], testEventIds: [test.event_id] };
}

