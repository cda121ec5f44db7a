// The three classes a change falls in, for both engines (OpenAPI and AsyncAPI), and the version bump each
// needs. `breaking` and `non-breaking` come from the engines (redocly diff's rules, @asyncapi/diff's
// standard and asyncapi-rules.ts); `docs-only` is decided here, from where the change is, the same way for
// both: a change at or below a documentation keyword (a description, summary, title, example, ...)
// changes what people read, never what goes over the wire.
import type { Impact } from './types.js';

/** Keywords whose value is documentation only, in OpenAPI, AsyncAPI and JSON Schema alike. */
const DOC_KEYWORDS = new Set([
  'description',
  'summary',
  'title',
  'example',
  'examples',
  'externalDocs',
  '$comment',
  'tags',
  // This project's extensions that only the docs and examples read (spec/extensions.md).
  'x-contract-source',
  'x-example-signing-secret',
]);

/**
 * Keys below these are names chosen by the author (a property called `description`, a header or a
 * component called `title`), or values (`required`, `enum`), never keywords.
 */
const NAME_CONTAINERS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentRequired',
  'dependentSchemas',
  'required',
  'enum',
  'schemas',
  'parameters',
  'headers',
  'responses',
  'requestBodies',
  'securitySchemes',
  'links',
  'callbacks',
  'variables',
  'encoding',
  'content',
  'mapping',
  'paths',
  'webhooks',
  'channels',
  'messages',
  'operations',
  'servers',
  'serverVariables',
  'operationTraits',
  'messageTraits',
  'correlationIds',
  'replies',
  'replyAddresses',
]);

/**
 * True when the change at these path segments (from the document root or from a subject, unescaped)
 * touches documentation only. `info` below the root is documentation too, except its version (which
 * the policy judges, not the classifier).
 */
export function isDocumentationOnly(segments: readonly string[]): boolean {
  if (segments[0] === 'info' && segments[1] !== 'version' && segments.length > 1) return true;
  // Provenance of the delivery rules (stated or designed), the x-contract-source of x-delivery-rules.
  if (segments[0] === 'x-delivery-rules' && segments[1] === 'sources') return true;
  return segments.some((s, i) => DOC_KEYWORDS.has(s) && !NAME_CONTAINERS.has(segments[i - 1] ?? ''));
}

/** Strictest first: a change seen twice (through two references) keeps its higher rank. */
export const IMPACT_RANK: Record<Impact, number> = { breaking: 2, 'non-breaking': 1, 'docs-only': 0 };

export const IMPACTS: Impact[] = ['breaking', 'non-breaking', 'docs-only'];
