// AsyncAPI changes, rated by `@asyncapi/diff` on both documents as the AsyncAPI parser resolves them
// (every $ref, across the split files, dereferenced: the input @asyncapi/diff asks for), with the
// gaps of its standard filled by asyncapi-rules.ts. The same message appears three times in a
// dereferenced document (channel, components, operation), so changes are folded per event. A change in
// a shared schema shows up under every event whose payload or headers hold it (the messages are
// dereferenced), so each affected event is listed; the copy under components/schemas is not repeated.
import { diff } from '@asyncapi/diff';
import { Parser, fromFile } from '@asyncapi/parser';
import path from 'node:path';
import { overrides, rateUnclassified } from './asyncapi-rules.js';
import { IMPACT_RANK, isDocumentationOnly } from './impact.js';
import type { Change, DocumentDiff } from './types.js';
import { unescapePointerSegment } from '../../src/contract/json-pointer.js';

type Json = any;

const parser = new Parser();

interface Loaded {
  doc: Json;
  /** components/schemas name -> the events whose payload or headers include that schema. */
  schemaUsers: Map<string, Set<string>>;
}

async function load(file: string): Promise<Loaded> {
  const { document, diagnostics } = await fromFile(parser, path.resolve(file)).parse();
  if (!document) {
    const errors = diagnostics
      .filter((d) => d.severity === 0)
      .map((d) => `  ${d.source ?? file}:${(d.range?.start.line ?? 0) + 1} ${d.message} (${d.code})`);
    throw new Error(`${file} is not a valid AsyncAPI document:\n${errors.join('\n')}`);
  }
  const json = document.json();
  return { doc: normalise(json), schemaUsers: schemaUsers(json) };
}

/** The parser marks each schema taken from components/schemas with `x-parser-schema-id: <name>`. */
function schemaUsers(json: Json): Map<string, Set<string>> {
  const users = new Map<string, Set<string>>();
  const messages: [string, Json][] = [
    ...Object.entries<Json>(json.components?.messages ?? {}),
    ...Object.values<Json>(json.channels ?? {}).flatMap((channel) => Object.entries<Json>(channel?.messages ?? {})),
  ];
  for (const [event, message] of messages) {
    const seen = new Set<object>();
    const walk = (node: Json) => {
      if (!node || typeof node !== 'object' || seen.has(node)) return;
      seen.add(node);
      const id = node['x-parser-schema-id'];
      if (typeof id === 'string' && !id.startsWith('<')) users.set(id, (users.get(id) ?? new Set()).add(event));
      for (const value of Object.values(node)) walk(value);
    };
    walk(message?.payload);
    walk(message?.headers);
  }
  return users;
}

const SHARED_SCHEMA = /^\/components\/schemas\/([^/]+)/;

/**
 * A copy fit for a structural diff: the parser's own `x-parser-*` bookkeeping removed (its anonymous
 * schema ids shift with unrelated edits), operation message lists keyed by message name and
 * `required`/`enum` lists turned into sets, so an insertion is one change, not a shifted index each.
 */
export function normalise(value: Json, seen = new Map<object, Json>()): Json {
  if (Array.isArray(value)) return value.map((v) => normalise(v, seen));
  if (!value || typeof value !== 'object') return value;
  if (seen.has(value)) return seen.get(value);
  const out: Record<string, Json> = {};
  seen.set(value, out);
  for (const [key, v] of Object.entries(value)) {
    if (key.startsWith('x-parser-')) continue;
    if ((key === 'required' || key === 'enum') && Array.isArray(v)) {
      out[key] = Object.fromEntries(v.map((item) => [typeof item === 'string' ? item : JSON.stringify(item), true]));
    } else if (key === 'messages' && Array.isArray(v)) {
      out[key] = Object.fromEntries(v.map((m: Json, i: number) => [m?.name ?? String(i), normalise(m, seen)]));
    } else {
      out[key] = normalise(v, seen);
    }
  }
  return out;
}

const unescape = unescapePointerSegment;
// A message seen through a channel, components, an operation, or the channel an operation points at.
const MESSAGE = /^\/(?:channels\/[^/]+|components|operations\/[^/]+(?:\/channel|\/reply)?)\/messages\/([^/]+)(?:\/(.*))?$/;

export async function diffAsyncApi(baseFile: string, revisionFile: string): Promise<DocumentDiff> {
  // Two parses even of one file: the parser's generated ids must not show up as changes.
  const [loadedBase, loadedRevision] = await Promise.all([load(baseFile), load(revisionFile)]);
  const [base, revision] = [loadedBase.doc, loadedRevision.doc];
  const output = diff(base, revision, { override: overrides as never }).getOutput() as {
    changes: { action: 'add' | 'remove' | 'edit'; path: string; type: string; before?: unknown; after?: unknown }[];
  };
  const folded = new Map<string, Change>();
  for (const c of output.changes) {
    const shared = SHARED_SCHEMA.exec(c.path);
    if (shared) {
      const name = unescape(shared[1]);
      const used = (loadedBase.schemaUsers.get(name)?.size ?? 0) + (loadedRevision.schemaUsers.get(name)?.size ?? 0) > 0;
      // Used: the same change is rated under each event that delivers it. Unused: nothing is delivered with it.
      if (used) continue;
      const key = `${c.path}|${c.action}`;
      const below = c.path.split('/').slice(4).map(unescape);
      if (!folded.has(key)) folded.set(key, { impact: isDocumentationOnly(below) ? 'docs-only' : 'non-breaking', action: c.action, subject: `components/schemas/${name}`, path: below.join('/'), message: 'schema used by no event' });
      continue;
    }
    const m = MESSAGE.exec(c.path);
    const subject = m ? `event ${unescape(m[1])}` : c.path.split('/').slice(0, 3).map(unescape).join('/') || '(root)';
    const rest = m ? (m[2] ?? '') : c.path.split('/').slice(3).join('/');
    const segments = rest ? rest.split('/').map(unescape) : [];
    const whole = c.path.split('/').slice(1).map(unescape);
    const inSchema = segments[0] === 'payload' || segments[0] === 'headers';
    let impact: Change['impact'];
    let message: string;
    if (m && !rest) {
      // A whole message: an event added or removed, whichever reference the engine saw it through.
      impact = c.action === 'add' ? 'non-breaking' : 'breaking';
      message = c.action === 'add' ? 'event added' : c.action === 'remove' ? 'event removed: subscribers stop receiving it' : 'event replaced';
    } else if (isDocumentationOnly(m ? segments : whole)) {
      // Before the standard: it rates some documentation edits (a message's summary) as changes of the message.
      impact = 'docs-only';
      message = 'documentation only';
    } else if (c.type === 'breaking' || c.type === 'non-breaking') {
      impact = c.type;
      message = `${c.action} (@asyncapi/diff standard)`;
    } else {
      ({ impact, reason: message } = rateUnclassified(m ? segments : whole, c.action, inSchema, c.before, c.after));
    }
    const scalar = (v: unknown) => v === null || typeof v !== 'object';
    if (c.action === 'edit' && scalar(c.before) && scalar(c.after)) message += ` (${JSON.stringify(c.before)} -> ${JSON.stringify(c.after)})`;
    const key = `${subject}|${segments.join('/')}|${c.action}`;
    const previous = folded.get(key);
    // Same change seen through another reference to the message: keep the strictest rating.
    if (previous && IMPACT_RANK[previous.impact] >= IMPACT_RANK[impact]) continue;
    folded.set(key, { impact, action: c.action, subject, path: segments.join('/'), message });
  }
  return {
    kind: 'asyncapi',
    baseVersion: String(base.info?.version ?? ''),
    revisionVersion: String(revision.info?.version ?? ''),
    changes: [...folded.values()].filter((c) => !(c.subject === '/info/version')),
  };
}
