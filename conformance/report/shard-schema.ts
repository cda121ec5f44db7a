// The shape of a shard report (report/shard.ts ShardReport) as a JSON Type Definition (RFC 8927), which
// `certify merge` checks every shard file against before it reads a field (rest/merge.ts). Typed with
// Ajv's JTDSchemaType, so the compiler holds it to the ShardReport type: a field added to the report and
// not here (or typed otherwise) fails `npm run typecheck`. JTD refuses unknown properties, so a shard file
// holds nothing the merge does not know. What JTD cannot say is checked after it (merge.ts): that numbers
// are finite, the settings' values are scalars, the indexes point into their tables, and the bounds.
import { Ajv, type JTDSchemaType } from 'ajv/dist/jtd.js';
import type { ExchangeFinding, ExchangeResult } from '../rest/exchange.js';
import { SHARD_REPORT_KIND, type ShardObservation, type ShardReport } from './shard.js';

type Exchange = ShardReport['exchanges'][number];

/**
 * The report as JTD can state it; merge.ts checks the rest: `formatVersion` is 1 (read before the schema,
 * for its own message), `settings` maps names to scalars, a skipped rule is a pair, `observed` is true.
 */
export type CheckedShardReport = Omit<ShardReport, 'formatVersion' | 'settings' | 'exchanges'> & {
  formatVersion: number;
  settings: Record<string, unknown>;
  exchanges: Array<Omit<Exchange, 'observed' | 'ruleTally'> & { observed?: boolean; ruleTally: Omit<ShardObservation, 'skipped'> & { skipped: number[][] } }>;
};

const finding: JTDSchemaType<ExchangeFinding> = {
  properties: { rule: { type: 'string' }, subject: { type: 'string' }, severity: { enum: ['error', 'warning'] }, message: { type: 'string' } },
};

type Cases = NonNullable<ShardReport['generation']>['perOperation'][string];
const cases: JTDSchemaType<Cases> = { properties: { valid: { type: 'uint32' }, invalid: { type: 'uint32' }, security: { type: 'uint32' }, shrunk: { type: 'uint32' }, total: { type: 'uint32' } } };

const generated: JTDSchemaType<NonNullable<ExchangeResult['generated']>> = {
  properties: { kind: { enum: ['valid', 'invalid', 'security'] }, label: { type: 'string' } },
  optionalProperties: { shrinks: { type: 'uint32' }, curl: { type: 'string' } },
};

export const shardReportSchema: JTDSchemaType<CheckedShardReport> = {
  properties: {
    kind: { enum: [SHARD_REPORT_KIND] },
    formatVersion: { type: 'uint8' },
    shard: { properties: { index: { type: 'uint32' }, total: { type: 'uint32' }, scenarios: { elements: { type: 'string' } }, operations: { elements: { type: 'string' } } } },
    tool: { properties: { package: { type: 'string' }, version: { type: 'string' } } },
    spec: { properties: { api: { enum: ['storefront', 'webhooks'] }, source: { type: 'string' }, version: { type: 'string' }, sha256: { type: 'string' } }, optionalProperties: { basePath: { type: 'string' } } },
    recordings: { properties: { sha256: { type: 'string' }, scenarios: { elements: { type: 'string' } }, recorded: { elements: { type: 'string' } } } },
    target: { properties: { url: { type: 'string' }, storeId: { type: 'string' }, embeddedMock: { type: 'boolean' } } },
    settings: { values: {} },
    startedAt: { type: 'timestamp' },
    durationMs: { type: 'float64' },
    rules: { elements: { type: 'string' } },
    skipReasons: { elements: { type: 'string' } },
    exchanges: {
      elements: {
        properties: {
          id: { type: 'string' },
          scenario: { type: 'string' },
          step: { type: 'string' },
          index: { type: 'uint32' },
          operationId: { type: 'string' },
          method: { type: 'string' },
          path: { type: 'string' },
          recordedStatus: { type: 'uint16' },
          durationMs: { type: 'float64' },
          findings: { elements: finding },
          judged: { type: 'boolean' },
          ruleTally: {
            properties: {
              judged: { elements: { type: 'uint32' } },
              skipped: { elements: { elements: { type: 'uint32' } } },
            },
          },
        },
        optionalProperties: {
          status: { type: 'uint16' },
          error: { type: 'string' },
          generated,
          observed: { type: 'boolean' },
        },
      },
    },
  },
  optionalProperties: {
    generation: {
      properties: {
        count: { type: 'uint32' },
        seed: { type: 'uint32' },
        durationMs: { type: 'float64' },
        perOperation: { values: cases },
        reproduce: { type: 'string' },
        operations: { elements: { type: 'string' } },
      },
    },
  },
};

/** The validator of a parsed shard report (errors with a JSON pointer to the first wrong field). */
export const validateShardReport = new Ajv().compile<CheckedShardReport>(shardReportSchema);
