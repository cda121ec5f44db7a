// The site for agents that read (llmstxt.org): two plain-text files at the site's root, beside index.html.
//   llms.txt        what the project is, then lists of links: every guide and reference, one line per
//                   operation of the Storefront, Admin and Workbench APIs (METHOD path: summary), one per
//                   webhook event, and what a coding agent uses (the MCP server's tools, the skill file)
//   llms-full.txt   the same header, then every guide's Markdown in full, in the site's order, each under
//                   its `# title` and its URL
// Every list comes from what the build already reads: the guides from readGuides (pages.ts's order), the
// references from pages.ts, the operations from the OpenAPI documents, the events from the dereferenced
// AsyncAPI document (as the events pages). Links are relative to the site's root (the workbench serves it
// at /docs/). Nothing depends on the date or the machine, so a tree builds the same bytes every time; the
// files are written before precompressSite, which gives them their .br and .gz like any text file.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { documents, repoRoot, workbenchDocument } from '../lib/repo.js';
import { eventAnchor, familyHref, FAMILIES } from './events.js';
import { changelogPage, guideHref, operationFacts, operationsOf, references, serverBasePath, type OperationLine } from './pages.js';
import { PROVENANCE, registerPage, type JsonObject, type Provenance } from './provenance.js';
import { redocRoute, type SearchEntry } from './search-index.js';

export const llmsFiles = { index: 'llms.txt', full: 'llms-full.txt' } as const;

/** The skill file, in the tools package (packages/storefront-contract-tools/ in this repository). */
export const skillFile = 'skills/storefront-contract/SKILL.md';
const toolsPackage = 'storefront-contract-tools';

export interface LlmsGuide {
  slug: string;
  title: string;
  summary: string;
  /** The guide's Markdown (docs/guides/<slug>.md). */
  source: string;
}

export interface LlmsInput {
  /** In the site's order (readGuides). */
  guides: LlmsGuide[];
  /** The AsyncAPI document, dereferenced and stamped with provenance (dereferenceWithProvenance('webhooks')). */
  webhooks: JsonObject;
  /** The MCP server's tool names, read from the tools (../agent-tools.ts `agentToolNames`); `clone`: only in a clone. */
  agentTools: { everywhere: readonly string[]; clone: readonly string[] };
}

interface Api {
  title: string;
  href: string;
  file: string;
  /** Whether its lines say stated or designed (the Workbench API is outside the platform's contract). */
  provenance: boolean;
}

const href = (id: (typeof references)[number]['id']) => references.find((r) => r.id === id)!.href;
const apis = (): Api[] => [
  { title: 'Storefront API', href: href('storefront'), file: documents.storefront, provenance: true },
  { title: 'Admin webhook API', href: href('admin'), file: documents.admin, provenance: true },
  { title: 'Workbench API', href: href('workbench'), file: workbenchDocument, provenance: false },
];

const provenanceWords = (designed: boolean) => (designed ? 'designed here' : 'stated by the platform');
/** The document's tags that have operations, in its order: "Authentication, Catalog, Cart". */
const tagsOf = (file: string) => operationFacts(file).byTag.map(([tag]) => tag).join(', ');
/** A list item of llmstxt.org: `- [name](url): note`. */
const item = (name: string, url: string, note: string) => `- [${name}](${url})${note ? `: ${note}` : ''}`;
/** One line of text, whatever the source wrapped. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function operationItem(api: Api, op: OperationLine): string {
  const words = [`${oneLine(op.summary).replace(/\.$/, '')}.`, `\`${op.operationId}\``];
  if (api.provenance) words.push(provenanceWords(op.designed));
  return item(`${op.method.toUpperCase()} ${op.path}`, `${api.href}${redocRoute(op.tags[0], op.operationId)}`, `${words[0]} ${words.slice(1).join(', ')}.`);
}

interface EventLine {
  name: string;
  family: string;
  summary: string;
  provenance?: Provenance;
  marketplaceScoped: boolean;
}

function eventsOf(webhooks: JsonObject): EventLine[] {
  return Object.entries<JsonObject>(webhooks.components?.messages ?? {}).map(([name, m]) => ({
    name,
    family: String(m['x-event-family']),
    summary: oneLine(String(m.summary ?? '')),
    provenance: m[PROVENANCE] as Provenance | undefined,
    marketplaceScoped: m['x-marketplace-scoped'] === true,
  }));
}

function eventItem(e: EventLine): string {
  const family = FAMILIES.find((f) => f.id === e.family)?.label.replace(/ \(.*\)$/, '') ?? e.family;
  const words = [`${family} family`];
  if (e.provenance) words.push(provenanceWords(e.provenance.kind === 'designed'));
  if (e.marketplaceScoped) words.push('marketplace-scoped');
  return item(e.name, `${familyHref(e.family)}#${eventAnchor(e.name)}`, `${e.summary.replace(/\.$/, '')}. ${words.join(', ')}.`);
}

interface Skill {
  name: string;
  description: string;
}

/** The skill's frontmatter: the build fails when the file the site points at is missing or unreadable. */
export function readSkill(file = path.join(repoRoot, 'packages', toolsPackage, skillFile)): Skill {
  const text = readFileSync(file, 'utf8');
  const front = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(text);
  const data = front ? (parse(front[1]!) as Partial<Skill> | null) : null;
  if (!data?.name || !data.description) throw new Error(`${path.relative(repoRoot, file)}: no YAML frontmatter with a name and a description (the Agent Skills format); llms.txt points agents at it.`);
  return { name: String(data.name), description: oneLine(String(data.description)) };
}

/** The title, the summary and the paragraphs both files open with. */
function header(input: LlmsInput, lists: boolean): string {
  const [storefront, admin] = [operationsOf(documents.storefront), operationsOf(documents.admin)];
  const events = eventsOf(input.webhooks);
  const families = new Set(events.map((e) => e.family));
  const register = input.guides.some((g) => guideHref(g.slug) === registerPage) ? `[register of designed decisions](${registerPage})` : 'register of designed decisions';
  return `# Storefront contract

> The contract of a commerce platform's Storefront REST API and its webhook delivery contract (beta), written first as OpenAPI and AsyncAPI documents. Types, typed clients, validators, a stateful sandbox with a webhook simulator, this documentation and certification are all derived from those documents.

The Storefront API has ${storefront.length} operations under \`{base_url}${serverBasePath(documents.storefront)}\` (${tagsOf(documents.storefront)}). The Admin webhook API has ${admin.length} operations under \`{base_url}${serverBasePath(documents.admin)}\` (${tagsOf(documents.admin)}): webhook subscriptions and their deliveries. The webhooks (version ${input.webhooks.info?.version ?? ''} of the delivery contract) are ${events.length} events in ${families.size} families, each delivered as a signed POST to the URL a subscription registered through the Admin API.

Each element of the contract is stated by the platform (its interface document states it) or designed here (the platform leaves it "not shown"; the ${register} gives each decision and its reason).${lists ? ' The lists below say which for every operation and event.' : ''}

Two npm packages carry it: \`storefront-contract\`, the library an app imports (typed clients, validators, the webhook receiver kit), and \`${toolsPackage}\`, the \`storefront-contract\` command: \`npx storefront-contract mock\` serves the sandbox, the webhook simulator and this site (at /docs/) on http://127.0.0.1:4010, and \`npx storefront-contract certify\` certifies a server against the contract.

Links are relative to this file.`;
}

export function renderLlmsTxt(input: LlmsInput): string {
  const skill = readSkill();
  const sections: string[] = [header(input, true)];
  sections.push(['## Guides', '', ...input.guides.map((g) => item(g.title, guideHref(g.slug), oneLine(g.summary)))].join('\n'));
  sections.push(['## References', '', ...references.map((r) => item(r.title, r.href, oneLine(r.summary))), item(changelogPage.title, changelogPage.href, changelogPage.summary)].join('\n'));
  const [storefront, admin, workbench] = apis();
  for (const api of [storefront!, admin!]) {
    sections.push([`## ${api.title} operations`, '', `Paths are relative to \`{base_url}${serverBasePath(api.file)}\`.`, '', ...operationsOf(api.file).map((op) => operationItem(api, op))].join('\n'));
  }
  sections.push(['## Webhook events', '', `Headers, payload fields and a signed example of each are on its family's page; the delivery rules (signature, retries, 410) are in the [catalog](${href('events')}).`, '', ...eventsOf(input.webhooks).map(eventItem)].join('\n'));
  sections.push(
    [
      `## ${workbench!.title} operations`,
      '',
      `The workbench's own routes (the sandbox's back office, store clocks, faults, the simulator's trigger, the console's reads): designed here, outside the platform's contract. Paths are relative to \`{base_url}${serverBasePath(workbench!.file)}\`.`,
      '',
      ...operationsOf(workbench!.file).map((op) => operationItem(workbench!, op)),
    ].join('\n'),
  );
  const tools = (names: readonly string[]) => names.map((n) => `\`${n}\``).join(', ');
  sections.push(`## For coding agents

\`npx storefront-contract mcp\` (the ${toolsPackage} package) is an MCP server over stdio (the client starts it; it starts a workbench of its own, or drives a running one with \`--url\`), and a running workbench serves the same over Streamable HTTP at /mcp. It serves this contract, the sandbox and certification as MCP tools: ${tools(input.agentTools.everywhere)}; in a clone of the repository also ${tools(input.agentTools.clone)}. Look an operation up with \`contract_search\`, then \`contract_operation\`, instead of guessing its fields, and call it on the sandbox with \`sandbox_call\`.

The skill \`${skill.name}\` (the Agent Skills format) says how an agent builds an app against the sandbox, debugs a webhook delivery and certifies before a pull request: \`${skillFile}\` in the ${toolsPackage} package (\`node_modules/${toolsPackage}/${skillFile}\` once installed, \`packages/${toolsPackage}/${skillFile}\` in a clone of the repository). Its description: ${skill.description}`);
  sections.push(['## Optional', '', item(llmsFiles.full, llmsFiles.full, 'every guide above in full, as Markdown, in the same order.')].join('\n'));
  return `${sections.join('\n\n')}\n`;
}

/**
 * A guide's Markdown without its first `# title` line (the file puts its own above it) and the HTML
 * comments before it (a generated guide's "do not edit" note, which is about the repository's file).
 */
export function guideBody(source: string): string {
  const h1 = /^#\s+.+$/m.exec(source);
  if (!h1) return source.trim();
  const before = source.slice(0, h1.index).replace(/<!--[\s\S]*?-->/g, '');
  return `${before.trim()}\n\n${source.slice(h1.index + h1[0].length).trim()}`.trim();
}

export function renderLlmsFullTxt(input: LlmsInput): string {
  const intro = `${header(input, false)}

Every guide of the site follows in full, in the site's order, each under its \`# title\` and its URL; [${llmsFiles.index}](${llmsFiles.index}) lists the references, every operation and every event. Inside a guide, links are written for the repository's docs/guides/ folder: \`other.md\` is the guide at guides/other.html, and \`../../spec/openapi/storefront.yaml\`, \`../../spec/openapi/admin.yaml\` and \`../../spec/asyncapi/webhooks.yaml\` are the references at ${href('storefront')}, ${href('admin')} and ${href('events')}.`;
  const guides = input.guides.map((g) => `# ${g.title}\n\nURL: ${guideHref(g.slug)}\n\n${guideBody(g.source)}`);
  return `${[intro, ...guides].join('\n\n')}\n`;
}

/** The two files in the site's search, so a reader looking for them finds them. */
export const llmsEntries: SearchEntry[] = [
  { t: 'llms.txt: the site for agents', u: llmsFiles.index, k: 'Agents', x: 'Every guide, reference, operation and event as a list of links (llmstxt.org), and what a coding agent uses: the MCP server (storefront-contract mcp) and the skill file.' },
  { t: 'llms-full.txt: every guide in one file', u: llmsFiles.full, k: 'Agents', x: 'The Markdown of every guide in full, in the site\'s order, for agents that read.' },
];

/** Writes llms.txt and llms-full.txt at the site's root; returns their sizes. */
export async function writeLlms(siteDir: string, input: LlmsInput): Promise<{ index: number; full: number }> {
  const [index, full] = [renderLlmsTxt(input), renderLlmsFullTxt(input)];
  await Promise.all([writeFile(path.join(siteDir, llmsFiles.index), index), writeFile(path.join(siteDir, llmsFiles.full), full)]);
  return { index: Buffer.byteLength(index), full: Buffer.byteLength(full) };
}
