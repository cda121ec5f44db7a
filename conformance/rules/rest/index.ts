// The REST rules, in the order findings are reported. One file per rule (its id), one line per rule in
// conformance/rules/README.md, one test per rule in test/conformance/rules/rest/<id>.test.ts;
// test/conformance/rules/completeness.test.ts fails when a rule file is not listed here.
import type { RestRule } from '../observations/rest.js';
import { authEnforced } from './auth-enforced.js';
import { contentTypeJson } from './content-type-json.js';
import { crossCallConsistency } from './cross-call-consistency.js';
import { envelope } from './envelope.js';
import { generatedAccepted } from './generated-accepted.js';
import { generatedRefused } from './generated-refused.js';
import { invalidInputRejected } from './invalid-input-rejected.js';
import { pagination } from './pagination.js';
import { paginationPastEnd } from './pagination-past-end.js';
import { responseSchema } from './response-schema.js';
import { statusDocumented } from './status-documented.js';
import { structuralDrift } from './structural-drift.js';

export const restRules: readonly RestRule[] = [
  statusDocumented,
  contentTypeJson,
  responseSchema,
  envelope,
  pagination,
  paginationPastEnd,
  invalidInputRejected,
  authEnforced,
  structuralDrift,
  crossCallConsistency,
  generatedAccepted,
  generatedRefused,
];
