// Certifies one fake sender of sender-cases.ts and checks the verdict: certified when it follows the
// contract, else not certified with an error finding of the rule its fault breaks (a run where the
// certifier said the machine was too busy to judge that rule is run again, at most three in all).
import { expect } from 'vitest';
import { runSender } from '../../conformance/webhooks/run.js';
import { startFakeSender } from './fake-sender.js';
import { hangGuard } from '../helpers/hang-guard.js';
import { TIME_SCALE, type SenderCase } from './sender-cases.js';

const base = { port: 0, event: 'order.created', expectHeaders: {}, reportDir: '' };

/**
 * The certifier's own word that a loaded machine kept it from judging: our answer landed too close to the
 * sender's time-out to tell whether the sender saw it (conformance/rules/shared/timing.ts lateAnswerReason).
 */
const TOO_CLOSE_TO_TELL = /too close to the sender's .+ time-out to tell/;
/** Certifications in all: a run the certifier could not judge (above) is run again, as a user would. */
const RUNS = 3;

export async function certifyFakeSender(_name: string, { fault, rule, strict }: SenderCase[1]): Promise<void> {
  for (let run = 1; ; run++) {
    const sender = await startFakeSender({ timeScale: TIME_SCALE, fault });
    try {
      // A lost event is waited for 2 s (not the default 10 s): the senders here answer within milliseconds.
      // Otherwise the certifier's default patience (10 s), a hang guard here (test/helpers/hang-guard.ts).
      const waitMs = fault === 'drops-first-delivery' ? 2000 : hangGuard(10_000);
      const result = await runSender({ ...base, adminUrl: sender.url, adminToken: 't', timeScale: TIME_SCALE, quietMs: 700, strict, waitMs }, { writeFiles: false });
      const failing = result.certificate.rules.filter((x) => x.status === 'failed').map((x) => x.id);
      // On a busy machine the certifier may decline to judge the rule that names the fault (skipped, saying
      // why): never a pass. That run proves nothing either way, so it is run again.
      const judged = result.certificate.rules.find((r) => r.id === rule);
      if (rule && judged?.status === 'skipped' && TOO_CLOSE_TO_TELL.test(judged.skipped ?? '') && run < RUNS) continue;
      if (!rule) {
        expect(failing).toEqual([]);
        expect(result.certificate.verdict).toBe('certified');
      } else {
        expect(failing, JSON.stringify(judged)).toContain(rule);
        expect(result.certificate.verdict).toBe('not-certified');
        const findings = judged!.findings.filter((f) => f.severity === 'error');
        expect(findings.length).toBeGreaterThan(0);
      }
      return;
    } finally {
      await sender.close();
    }
  }
}
