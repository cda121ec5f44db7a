// Issue 28: what the changelog costs on top of the diff engine it is built on. Baseline: the engine on
// the first two releases of spec/versions.yaml (each of the three documents compared, as `npm run diff`
// runs it: redocly diff processes and the AsyncAPI parser), median of rounds. Subject: the changelog's own
// work on those results (grouped, the operations and events reached gathered, the bumps, rendered as
// Markdown and JSON), median ms per call. Their ratio is the share the changelog adds to a comparison: both
// measured in this run on the same comparison, without timing the same engine twice against itself (an
// A/B of identical process-bound work measured only the machine's noise: 1.09 and 1.31 in two runs).
// Needs the releases' commits (a full clone).
import { performance } from 'node:perf_hooks';
import { alternate, median } from '../lib/alternate.js';
import { metric, type BenchSuite } from '../lib/metric.js';
import { assembleChangelog, compareSides, type Comparison } from '../../scripts/changelog/build.js';
import { renderJson, renderMarkdown } from '../../scripts/changelog/render.js';
import { findRepository, resolveSide } from '../../scripts/changelog/sides.js';
import { readReleases } from '../../scripts/changelog/versions.js';
import { repoRoot } from '../../scripts/lib/repo.js';

const ROUNDS = 5;

const suite: BenchSuite = {
  name: 'changelog',
  async run() {
    const releases = await readReleases(repoRoot);
    if (releases.length < 2) throw new Error('spec/versions.yaml lists fewer than two releases');
    const repo = { ...(await findRepository(repoRoot)), releases };
    const [from, to] = await Promise.all([resolveSide(releases[0].version, repoRoot, repo), resolveSide(releases[1].version, repoRoot, repo)]);
    try {
      let results: Comparison[] = await compareSides(from, to); // warm-up
      const engine: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const started = performance.now();
        results = await compareSides(from, to);
        engine.push(performance.now() - started);
      }
      let changes = 0;
      const { changelog } = alternate(
        {
          changelog: () => {
            const c = assembleChangelog(from, to, results);
            changes = c.changes.length;
            return renderMarkdown(c).length + renderJson(c).length;
          },
        },
        { rounds: 11, roundMs: 100, warmupCalls: 5 },
      );
      return [
        metric({
          id: 'changelog.ownWork.vs.diffEngine',
          description: `the changelog's own work on ${releases[0].version} -> ${releases[1].version} (${changes} changes in three documents: grouped, reach gathered, bumps, Markdown and JSON) vs the diff engine comparing the same two spec folders`,
          unit: 'ms per comparison',
          subject: { label: 'changelog (grouping + rendering)', value: changelog },
          baseline: { label: 'diff engine (3 documents)', value: median(engine) },
          target: { op: '<=', ratio: 0.05 },
          notes: `engine: median of ${ROUNDS} runs after one warm-up; changelog: median of 11 rounds of 100 ms`,
        }),
      ];
    } finally {
      await Promise.all([from.remove(), to.remove()]);
    }
  },
};

export default suite;
