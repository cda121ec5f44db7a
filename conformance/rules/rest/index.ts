// The rule set, in the order findings are reported. One file per rule; conformance/rules/README.md
// has one line per rule; test/conformance/rules/ one test per rule.
import type { Rule } from '../../rest/types.js';
import { authEnforced } from './auth-enforced.js';
import { contentTypeJson } from './content-type-json.js';
import { crossCallConsistency } from './cross-call-consistency.js';
import { envelope } from './envelope.js';
import { invalidInputRejected } from './invalid-input-rejected.js';
import { pagination } from './pagination.js';
import { paginationPastEnd } from './pagination-past-end.js';
import { responseSchema } from './response-schema.js';
import { statusDocumented } from './status-documented.js';
import { structuralDrift } from './structural-drift.js';

export const rules: Rule[] = [
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
];
