// The webhook rules, sender then receiver, in the order findings are reported. One file per rule (its
// id), one line per rule in conformance/rules/README.md, one test per rule in
// test/conformance/rules/webhooks/<id>.test.ts.
import type { Rule } from '../model.js';
import type { ReceiverObservations, SenderObservations } from '../observations/webhooks.js';
import { senderDelivers } from './sender-delivers.js';
import { senderMethodPost } from './sender-method-post.js';
import { senderSignatureFormat } from './sender-signature-format.js';
import { senderSignatureRawBody } from './sender-signature-raw-body.js';
import { senderIdentityHeaders } from './sender-identity-headers.js';
import { senderUserAgent } from './sender-user-agent.js';
import { senderContentType } from './sender-content-type.js';
import { senderEnvelopeSchema } from './sender-envelope-schema.js';
import { senderDeliveryIdUnique } from './sender-delivery-id-unique.js';
import { senderEventIdStable } from './sender-event-id-stable.js';
import { senderCustomHeaders } from './sender-custom-headers.js';
import { senderTestDelivery } from './sender-test-delivery.js';
import { senderNoRetryAfterSuccess } from './sender-no-retry-after-success.js';
import { senderRetryAttempts } from './sender-retry-attempts.js';
import { senderRetrySchedule } from './sender-retry-schedule.js';
import { senderTimeoutIsFailure } from './sender-timeout-is-failure.js';
import { senderGoneStops } from './sender-gone-stops.js';
import { receiverAcceptsValid } from './receiver-accepts-valid.js';
import { receiverVerifiesRawBytes } from './receiver-verifies-raw-bytes.js';
import { receiverRejectsBadSignature } from './receiver-rejects-bad-signature.js';
import { receiverRejectsBadContent } from './receiver-rejects-bad-content.js';
import { receiverHeaderBodyMismatch } from './receiver-header-body-mismatch.js';
import { receiverNo5xxOnBadInput } from './receiver-no-5xx-on-bad-input.js';
import { receiverIdempotent } from './receiver-idempotent.js';
import { receiverOutOfOrder } from './receiver-out-of-order.js';
import { receiverTestDelivery } from './receiver-test-delivery.js';
import { receiverOversizedBody } from './receiver-oversized-body.js';
import { receiverNever410 } from './receiver-never-410.js';
import { receiverToleratesUnknown } from './receiver-tolerates-unknown.js';

export const senderRules: readonly Rule<SenderObservations>[] = [
  senderDelivers,
  senderMethodPost,
  senderSignatureFormat,
  senderSignatureRawBody,
  senderIdentityHeaders,
  senderUserAgent,
  senderContentType,
  senderEnvelopeSchema,
  senderDeliveryIdUnique,
  senderEventIdStable,
  senderCustomHeaders,
  senderTestDelivery,
  senderNoRetryAfterSuccess,
  senderRetryAttempts,
  senderRetrySchedule,
  senderTimeoutIsFailure,
  senderGoneStops,
];

export const receiverRules: readonly Rule<ReceiverObservations>[] = [
  receiverAcceptsValid,
  receiverVerifiesRawBytes,
  receiverRejectsBadSignature,
  receiverToleratesUnknown,
  receiverRejectsBadContent,
  receiverHeaderBodyMismatch,
  receiverNo5xxOnBadInput,
  receiverIdempotent,
  receiverOutOfOrder,
  receiverTestDelivery,
  receiverOversizedBody,
  receiverNever410,
];
