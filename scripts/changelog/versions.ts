// The released versions of the contract: spec/versions.yaml, one entry per release (its version and the
// full id of its commit), oldest first. The repository has no release tags, so this file is the record;
// a git tag `contract-v<version>` names a release too, if one is ever pushed (sides.ts). The changelog
// command resolves a version through it, and the docs site's Changelog page is built from it.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { bumpBetween, parseVersion } from '../diff/policy.js';

export const VERSIONS_FILE = 'spec/versions.yaml';

export interface Release {
  /** The release's number: the version of the packages that shipped this spec (semver). */
  version: string;
  /** Full commit id (40 hex digits): an abbreviated id can become ambiguous as history grows. */
  commit: string;
  /** One line on what the release is, for the Changelog page. */
  note?: string;
}

export class VersionsError extends Error {}

/** The releases listed in `<root>/spec/versions.yaml`, checked; [] when the file does not exist. */
export async function readReleases(root: string): Promise<Release[]> {
  const file = path.join(root, VERSIONS_FILE);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new VersionsError(`${VERSIONS_FILE}: cannot read it (${error.code ?? error.message})`);
  });
  if (text === undefined) return [];
  return parseReleases(text);
}

export function parseReleases(text: string): Release[] {
  let doc: { releases?: unknown };
  try {
    doc = (YAML.parse(text) ?? {}) as { releases?: unknown };
  } catch (error) {
    throw new VersionsError(`${VERSIONS_FILE}: not valid YAML (${(error as Error).message.split('\n')[0]}); fix the syntax`);
  }
  if (!Array.isArray(doc.releases)) throw new VersionsError(`${VERSIONS_FILE}: needs a list "releases" (each entry: version, commit)`);
  const releases: Release[] = [];
  doc.releases.forEach((entry: Record<string, unknown>, i: number) => {
    const where = `${VERSIONS_FILE}: releases[${i}]`;
    const version = typeof entry?.version === 'string' ? entry.version : undefined;
    if (!version || !parseVersion(version)) throw new VersionsError(`${where}: "version" must be a semver version as a string (0.2.0, 1.0.0-beta.1); quote it in YAML`);
    const commit = typeof entry.commit === 'string' ? entry.commit : undefined;
    if (!commit || !/^[0-9a-f]{40}$/.test(commit)) throw new VersionsError(`${where} (${version}): "commit" must be a full commit id, 40 lowercase hex digits (git rev-parse <ref>)`);
    const previous = releases.at(-1);
    if (previous) {
      const bump = bumpBetween(previous.version, version);
      if (!bump || bump === 'none') throw new VersionsError(`${where}: ${version} does not come after ${previous.version}; list releases oldest first, each with a higher version`);
    }
    releases.push({ version, commit, note: typeof entry.note === 'string' ? entry.note.trim() : undefined });
  });
  return releases;
}

/** `0.2.0` or `v0.2.0` names the release 0.2.0. */
export function findRelease(releases: readonly Release[], asked: string): Release | undefined {
  const version = asked.replace(/^v(?=\d)/, '');
  return releases.find((r) => r.version === version);
}
