// Issue 28: what the changelog costs on top of the diff engine it is built on. Subject: the changelog
// between the first two releases of spec/versions.yaml (the three documents compared, grouped, the
// operations and events reached gathered, rendered as Markdown and JSON). Baseline: the engine alone on
// the same two spec folders (diffDocuments on each document, as `npm run diff` runs it). Both sides
// read the same extracted snapshots; alternating rounds. Needs the releases' commits (a full clone).
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { alternateRuns, type Tally } from '../lib/alternate.js';
import { metric, type BenchSuite } from '../lib/metric.js';
import { buildChangelog } from '../../scripts/changelog/build.js';
import { renderJson, renderMarkdown } from '../../scripts/changelog/render.js';
import { DOCUMENT_PATHS, findRepository, resolveSide } from '../../scripts/changelog/sides.js';
import { readReleases } from '../../scripts/changelog/versions.js';
import { diffDocuments } from '../../scripts/diff/compare.js';
import { repoRoot } from '../../scripts/lib/repo.js';

const ROUNDS = 4;

const suite: BenchSuite = {
  name: 'changelog',
  async run() {
    const releases = await readReleases(repoRoot);
    if (releases.length < 2) throw new Error('spec/versions.yaml lists fewer than two releases');
    const repo = { ...(await findRepository(repoRoot)), releases };
    const [from, to] = await Promise.all([resolveSide(releases[0].version, repoRoot, repo), resolveSide(releases[1].version, repoRoot, repo)]);
    let changes = 0;
    try {
      const timed = async (work: () => Promise<number>): Promise<Tally> => {
        const started = performance.now();
        await work();
        return { n: 1, ms: performance.now() - started };
      };
      const total = await alternateRuns(
        {
          changelog: () =>
            timed(async () => {
              const c = await buildChangelog(from, to);
              changes = c.changes.length;
              return renderMarkdown(c).length + renderJson(c).length;
            }),
          engine: () =>
            timed(async () => {
              const diffs = await Promise.all(Object.values(DOCUMENT_PATHS).map((p) => diffDocuments(path.join(from.specDir, p), path.join(to.specDir, p))));
              return diffs.length;
            }),
        },
        ROUNDS,
      );
      return [
        metric({
          id: 'changelog.vs.diffEngine',
          description: `changelog ${releases[0].version} -> ${releases[1].version} (${changes} changes in three documents, grouped, rendered as Markdown and JSON) vs the diff engine alone on the same spec folders`,
          unit: 'ms per comparison',
          subject: { label: 'changelog', value: total.changelog.ms / ROUNDS },
          baseline: { label: 'diff engine', value: total.engine.ms / ROUNDS },
          target: { op: '<=', ratio: 1.1 },
          notes: `${ROUNDS} alternating rounds per side after one warm-up each; redocly diff runs as a process per OpenAPI document on both sides`,
        }),
      ];
    } finally {
      await Promise.all([from.remove(), to.remove()]);
    }
  },
};

export default suite;
