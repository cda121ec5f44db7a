// status-documented: the live status is one the contract documents for the operation, and of the
// class the recording had (a 2XX exchange stays 2XX, a 4XX exchange stays 4XX).
import type { Rule } from '../../rest/types.js';
import { statusClass } from './util.js';

export const statusDocumented: Rule = {
  id: 'status-documented',
  severity: 'error',
  summary: 'The status is documented for the operation and of the class the recording had.',
  check({ step, live }) {
    const problems: string[] = [];
    const documented: readonly string[] = step.operation.responses;
    const code = String(live.status);
    if (!documented.includes(code) && !documented.includes(statusClass(live.status)) && !documented.includes('default')) {
      problems.push(`status ${code} is not documented for ${step.operation.operationId} (documented: ${documented.join(', ')})`);
    }
    if (statusClass(live.status) !== statusClass(step.recorded.status)) {
      problems.push(`status ${code} is not of the recorded class ${statusClass(step.recorded.status)} (the recording had ${step.recorded.status})`);
    }
    return problems;
  },
};
