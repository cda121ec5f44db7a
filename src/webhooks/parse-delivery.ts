// One delivery from raw bytes to a typed event, in the order seed 5.5 demands: size, signature (before
// anything reads the body), strict UTF-8, JSON, schema, then the unsigned `X-SVC-*` headers against the
// signed body. Each failure is a value with the HTTP status a receiver should answer, never a throw.
import { getHeader, HEADER, type HeaderSource } from './headers.js';
import { toBytes, verifySignature, type Secrets, type SignatureFailureReason } from './verify.js';
import { isKnownWebhookEvent, resolveValidator, runValidator, validateWebhookEnvelope, type DeliveryValidator, type ValidationIssue, type WebhookEvent } from './validation.js';

export type DeliveryRejectReason =
  | SignatureFailureReason
  | 'too-large'
  | 'invalid-utf8'
  | 'invalid-json'
  | 'schema'
  | 'envelope-mismatch'
  | 'header-mismatch';

export interface DeliveryRejection {
  ok: false;
  /** 401 signature, 413 size, 400 everything about the (authentic) content. */
  status: 400 | 401 | 413;
  reason: DeliveryRejectReason;
  /** Says what is wrong and, where the receiver can fix it, how. Never contains a secret or the body. */
  message: string;
  /** Schema violations, for `reason: 'schema'`. */
  errors?: ValidationIssue[];
  /** The header that disagrees with the body, for `reason: 'header-mismatch'`. */
  header?: string;
}

export interface AcceptedDelivery<E = WebhookEvent> {
  ok: true;
  status: 200;
  event: E;
  /** False for an event outside this kit's catalog, accepted on its envelope alone (`unknownEvents: 'acknowledge'`). */
  known: boolean;
  /** Which secret matched (0 = the first). */
  secretIndex: number;
}

export type ParsedDelivery<E = WebhookEvent> = AcceptedDelivery<E> | DeliveryRejection;

export interface ParseDeliveryInput {
  /** The exact bytes received. A parsed object is refused (`not-raw-body`). */
  rawBody: unknown;
  headers: HeaderSource;
  secrets: Secrets;
  /** Defaults to the generated validator (src/validators). */
  validate?: DeliveryValidator | undefined;
  /** When given, a longer body is refused with 413 before it is hashed. */
  maxBodyBytes?: number | undefined;
  /**
   * A verified delivery of an event outside this kit's catalog: `'acknowledge'` (default) accepts it when
   * the shared envelope is valid (`known: false`); `'reject'` refuses it with 400 like any schema failure.
   */
  unknownEvents?: 'acknowledge' | 'reject' | undefined;
}

const SIGNATURE_MESSAGES: Record<SignatureFailureReason, string> = {
  missing: 'X-SVC-Signature header is missing or empty',
  malformed: 'X-SVC-Signature must be `sha256=` followed by 64 lowercase hex digits, sent once',
  mismatch: 'X-SVC-Signature does not match the body for any configured secret',
  'not-raw-body':
    'the body reached the receiver already parsed, so its signature cannot be checked: give the receiver the raw bytes ' +
    "(no JSON body parser on this route; with Express use express.raw({ type: 'application/json' }))",
  'no-secrets': 'the receiver has no signing secret configured',
};

// `fatal` makes invalid UTF-8 an error instead of U+FFFD replacements; `ignoreBOM` keeps a BOM in the text
// so JSON.parse rejects it (RFC 8259 forbids one) rather than it being silently dropped.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const IDENTITY_HEADERS = [
  [HEADER.event, 'X-SVC-Event', 'event'],
  [HEADER.eventId, 'X-SVC-Event-ID', 'event_id'],
  [HEADER.deliveryId, 'X-SVC-Delivery-ID', 'delivery_id'],
] as const;

function reject(status: DeliveryRejection['status'], reason: DeliveryRejectReason, message: string, extra?: Partial<DeliveryRejection>): DeliveryRejection {
  return { ok: false, status, reason, message, ...extra };
}

/** Verifies, parses and validates one delivery. */
export function parseDelivery<E = WebhookEvent>(input: ParseDeliveryInput): ParsedDelivery<E> {
  const validate = resolveValidator(input.validate);
  const { rawBody, headers, secrets, maxBodyBytes } = input;

  const bytes = toBytes(rawBody);
  if (bytes !== undefined && maxBodyBytes !== undefined && bytes.byteLength > maxBodyBytes) {
    return reject(413, 'too-large', `body is larger than ${maxBodyBytes} bytes`);
  }

  const verdict = verifySignature(rawBody, getHeader(headers, HEADER.signature), secrets);
  if (!verdict.ok) return reject(401, verdict.reason, SIGNATURE_MESSAGES[verdict.reason]);

  let text: string;
  if (typeof rawBody === 'string') {
    text = rawBody; // Already text: nothing left to decode (and the bytes hashed were its UTF-8 encoding).
  } else {
    try {
      text = utf8.decode(bytes);
    } catch {
      return reject(400, 'invalid-utf8', 'body is not valid UTF-8');
    }
  }

  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // No parser detail in the answer: newer V8 messages quote part of the body.
    return reject(400, 'invalid-json', 'body is not valid JSON');
  }

  // A JSON null has no properties; any other value (a primitive included) reads as one that may lack `event`.
  const event = (body as { event?: unknown } | null)?.event;
  // An event this kit's catalog does not know (a newer contract): judged on the shared envelope alone.
  const unknown = typeof event === 'string' && !isKnownWebhookEvent(event) && input.unknownEvents !== 'reject';
  const validation = unknown ? validateWebhookEnvelope(body) : runValidator(validate, body);
  if (!validation.valid) {
    return reject(400, 'schema', 'body does not match the WebhookEnvelope schema or its event’s properties', { errors: validation.errors });
  }

  // The schema cannot say "equal to another field"; the dedupe key and the dispatch key must agree.
  const envelope = body as { event: string; event_id: string; delivery_id: string; payload: { event: string; event_id: string } };
  if (envelope.payload.event !== envelope.event || envelope.payload.event_id !== envelope.event_id) {
    return reject(400, 'envelope-mismatch', 'payload.event and payload.event_id must equal the envelope’s event and event_id');
  }

  // Only the body is signed (seed 5.5): a header that disagrees with it was changed in transit or forged.
  for (const [name, display, field] of IDENTITY_HEADERS) {
    const value = getHeader(headers, name);
    if (value !== envelope[field]) {
      const why = value === undefined ? 'is missing' : `does not equal the signed body's ${field}`;
      return reject(400, 'header-mismatch', `${display} ${why}`, { header: display });
    }
  }

  return { ok: true, status: 200, event: body as E, known: !unknown, secretIndex: verdict.secretIndex };
}
