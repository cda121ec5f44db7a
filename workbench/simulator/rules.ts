// The delivery rules the simulator obeys, read from the contract (`x-delivery-rules` of
// spec/asyncapi/webhooks.yaml, generated into generated/webhooks/catalog.ts) and turned into the
// millisecond values one time scale produces. No delivery number is written anywhere else in workbench/simulator.
import { deliveryRules, webhookEvents, type WebhookCatalogEntry } from 'storefront-contract';

export { deliveryRules, webhookEvents };
export type { WebhookCatalogEntry };

export interface Timing {
  /** The factor applied to every delay and to the time-out (1 = the contract's real values). */
  timeScale: number;
  /** An attempt without an answer after this long has failed. */
  timeoutMs: number;
  /** Delay before retry 1, 2, 3..., counted from the end of the failed attempt (`retryDelayFrom`). */
  retryDelaysMs: number[];
  maxAttempts: number;
}

/**
 * `timeoutMs` overrides the scaled time-out: a test that shortens the retry schedule 100x need not
 * also give receivers 300 ms to answer, which a loaded machine misses.
 */
export function timing(timeScale = 1, timeoutMs?: number): Timing {
  if (!(Number.isFinite(timeScale) && timeScale > 0)) {
    throw new RangeError(`time scale must be a positive number (1 = real time, 0.01 = 100x faster), got ${timeScale}`);
  }
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw new RangeError(`time-out must be a positive number of ms, got ${timeoutMs}`);
  return {
    timeScale,
    timeoutMs: timeoutMs ?? deliveryRules.timeoutSeconds * 1000 * timeScale,
    retryDelaysMs: deliveryRules.retryDelaysSeconds.map((s) => s * 1000 * timeScale),
    maxAttempts: deliveryRules.maxAttempts,
  };
}

/** True for a 2XX answer: the only answers that mean delivered (`successStatus: 2XX`). */
export function isSuccess(status: number): boolean {
  const digit = deliveryRules.successStatus.charAt(0);
  return String(status).charAt(0) === digit && status >= 100 && status <= 599;
}

export function isRedirect(status: number): boolean {
  return status >= 300 && status <= 399;
}

export function isDisable(status: number): boolean {
  return status === deliveryRules.disableStatus;
}

const reserved = deliveryRules.customHeaders.reserved.map((name) => name.toLowerCase());

/** Whether a custom header name is reserved: entries ending in `*` are prefixes; case never matters. */
export function isReservedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return reserved.some((r) => (r.endsWith('*') ? lower.startsWith(r.slice(0, -1)) : lower === r));
}

const byName = new Map<string, WebhookCatalogEntry>(webhookEvents.map((e) => [e.event, e]));

export function catalogEntry(event: string): WebhookCatalogEntry | undefined {
  return byName.get(event);
}
