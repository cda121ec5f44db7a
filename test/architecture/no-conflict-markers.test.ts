// A merge that left conflict markers in a committed file fails here, naming the file and line.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';

describe('committed files', () => {
  it('hold no merge-conflict markers', () => {
    const out = (() => {
      try {
        return execFileSync('git', ['grep', '-n', '-E', '^(<<<<<<< |>>>>>>> |=======$)', '--', '.', ':!package-lock.json'], { cwd: repoRoot, encoding: 'utf8' });
      } catch (e) {
        // git grep exits 1 when nothing matches.
        if ((e as { status?: number }).status === 1) return '';
        throw e;
      }
    })();
    expect(out.split('\n').filter(Boolean)).toEqual([]);
  });
});
