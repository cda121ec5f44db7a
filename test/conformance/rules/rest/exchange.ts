// Builds the Exchange a rule judges, from just the parts a test cares about.
import { storefrontOperations } from '../../../../generated/operations/storefront.js';
import type { ConsistencyCheck, Exchange, ExchangeStep, GeneratedCase } from '../../../../conformance/rules/observations/rest.js';

export interface ExchangeInput {
  operationId?: keyof typeof storefrontOperations;
  /** Path and query inside the storefront API. */
  path?: string;
  method?: string;
  headers?: Record<string, string>;
  recordedStatus?: number;
  recordedBody?: unknown;
  status?: number;
  /** null: the response has no Content-Type. */
  contentType?: string | null;
  body?: unknown;
  parseError?: string;
  values?: Record<string, string>;
  consistency?: ConsistencyCheck[];
  generated?: GeneratedCase;
  /** Observed in traffic (the validating proxy, --from-har): no recording; `recordedStatus` is ignored. */
  observed?: boolean;
}

export function exchange(input: ExchangeInput): Exchange {
  const op = storefrontOperations[input.operationId ?? 'listProducts'];
  const path = input.path ?? op.path;
  const method = (input.method ?? op.method).toUpperCase();
  const step: ExchangeStep = {
    scenario: 'test',
    index: 1,
    name: 'step',
    id: 'test/step',
    operation: op,
    recorded: { status: (input.observed ? undefined : input.recordedStatus) ?? input.status ?? 200, contentType: 'application/json', body: input.recordedBody },
  };
  return {
    step,
    request: { method, url: `http://127.0.0.1:1/api/v1/demo-store/storefront${path}`, headers: input.headers ?? {} },
    live: { status: input.status ?? 200, contentType: input.contentType === null ? undefined : input.contentType ?? 'application/json; charset=utf-8', body: input.body, parseError: input.parseError, durationMs: 1 },
    values: new Map(Object.entries(input.values ?? {})),
    consistency: input.consistency ?? [],
    ...(input.generated ? { generated: input.generated } : {}),
    ...(input.observed ? { observed: true as const } : {}),
  };
}

export function page(content: Record<string, unknown>, pagination: Record<string, unknown>) {
  return { success: true, message: 'ok', content: { ...content, pagination } };
}

export const errorEnvelope = { success: false, message: 'Invalid request.', content: { error: { code: 'invalid_parameter', details: [] } } };

/** A finding as the run reports it (severity after the rule's cap), for tests that check every field. */
export const error = (subject: string, message: string) => ({ subject, severity: 'error' as const, message });
export const warning = (subject: string, message: string) => ({ subject, severity: 'warning' as const, message });
export const skipped = (reason: string) => ({ skipped: reason });

/** The exchange of `input` judged for another operation: its id and documented statuses as given. */
export function withOperation(input: ExchangeInput, operation: { operationId: string; responses: readonly string[] }): Exchange {
  const ex = exchange(input);
  return { ...ex, step: { ...ex.step, operation: { ...ex.step.operation, ...operation } } };
}
