// The one place the receiver kit meets the generated contract: validators compiled from
// spec/asyncapi/webhooks.yaml (src/validators, written by `npm run generate`) and the event types
// (generated/types/webhooks.ts). Everything else in src/webhooks imports them from here, so a change in
// the generator's interface is a change to this file only.
export type { WebhookEvent, WebhookEventName, WebhookEventOf } from '../../generated/types/webhooks.js';

export interface ValidationIssue {
  /** JSON pointer-ish location in the body, e.g. `/payload/properties/order_number`. */
  path: string;
  message: string;
}

export type DeliveryValidation = { valid: true; event: string } | { valid: false; errors: ValidationIssue[] };

/** Validates a parsed delivery body: the envelope, then the event's own `payload.properties` by `event`. */
export type DeliveryValidator = (body: unknown) => DeliveryValidation;

type GeneratedValidators = { validateWebhookDelivery: DeliveryValidator };

// Loaded lazily and tolerantly: only a missing module is tolerated (the validators are generated, and a
// fresh checkout or a test that injects its own validator must still be able to import the kit). Any
// other load error is a real bug in the generated code and is rethrown.
let generated: GeneratedValidators | undefined;
try {
  generated = (await import('../validators/index.js')) as GeneratedValidators;
} catch (error) {
  const e = error as { code?: string; message?: string };
  if (e?.code !== 'ERR_MODULE_NOT_FOUND' || !String(e.message).includes('validators')) throw error;
}

/** True when `npm run generate` has produced the validators this kit uses by default. */
export const hasGeneratedValidators = generated !== undefined;

/**
 * The validator to use: the one given, else the generated one. Throws (at set-up time, never per request)
 * when neither exists, because a receiver that cannot validate must not start accepting deliveries.
 */
export function resolveValidator(given?: DeliveryValidator): DeliveryValidator {
  if (given) return given;
  if (generated) return generated.validateWebhookDelivery;
  throw new Error(
    'storefront-contract/webhooks: no delivery validator. src/validators/index.ts is missing: run `npm run generate`, ' +
      'or pass `validate` to createWebhookHandler()/parseDelivery().',
  );
}

/** Runs a validator and turns a throw into a validation failure, so a validator bug cannot crash a request. */
export function runValidator(validate: DeliveryValidator, body: unknown): DeliveryValidation {
  try {
    return validate(body);
  } catch (error) {
    return { valid: false, errors: [{ path: '', message: `validator failed: ${(error as Error)?.message ?? String(error)}` }] };
  }
}
