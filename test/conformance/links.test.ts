// The OpenAPI links of the storefront spec (register SF-032, SF-033) and the certifier's recorded bindings
// (conformance/traffic/*.bindings.yaml) describe the same flows: every capture a later request uses is a
// declared link, and every declared link is a capture the traffic uses. Either can change; this keeps
// them from drifting apart. The links themselves must resolve: target operation, parameter, credential,
// body field, and a response pointer that exists in the linking response's example.
import { describe, expect, it } from 'vitest';
import { loadDereferenced } from '../../scripts/lib/load-spec.js';
import { getPointer } from '../../src/contract/json-pointer.js';
import { loadScenarios, type Scenario, type Step } from '../../conformance/rest/load.js';

/** One value a link (or a binding) carries: from which answer, to which request place. */
interface Flow {
  from: string;
  status: string;
  to: string;
  /** `path.id`, `query.user_id`, `body.cart_id`, `security.bearerAuth`. */
  place: string;
  pointer: string;
}

const key = (f: Flow) => `${f.from} ${f.status} -> ${f.to} ${f.place} = ${f.pointer}`;
const EXPR = /^\{?\$response\.body#(\/[^}]*)\}?$/;

const spec = await loadDereferenced('storefront');
const operations = new Map<string, any>();
for (const item of Object.values<any>(spec.paths)) for (const [method, op] of Object.entries<any>(item)) if (op?.operationId) operations.set(op.operationId, { ...op, method });

interface DeclaredLink extends Flow {
  name: string;
  example: unknown;
}

function declaredLinks(): DeclaredLink[] {
  const out: DeclaredLink[] = [];
  for (const [from, op] of operations) {
    for (const [status, response] of Object.entries<any>(op.responses ?? {})) {
      const examples = Object.values<any>(response.content?.['application/json']?.examples ?? {});
      for (const [name, link] of Object.entries<any>(response.links ?? {})) {
        const places: Array<[string, string]> = [
          ...Object.entries<string>(link.parameters ?? {}),
          ...Object.entries<string>(link.requestBody ?? {}).map(([k, v]) => [`body.${k}`, v] as [string, string]),
          ...Object.entries<string>(link['x-security'] ?? {}).map(([k, v]) => [`security.${k}`, v] as [string, string]),
        ];
        for (const [place, expression] of places) {
          const pointer = EXPR.exec(expression)?.[1] ?? `not a response-body expression: ${expression}`;
          out.push({ name, from, status, to: link.operationId, place, pointer, example: examples[0]?.value });
        }
      }
    }
  }
  return out;
}

/** Where a request of `step` carries `value`, as a link place. */
function placesOf(step: Step, value: string): string[] {
  const op = operations.get(step.operation.operationId);
  const places: string[] = [];
  const url = new URL(step.entry.request.url);
  const inner = url.pathname.replace(/^\/api\/v1\/[^/]+\/storefront/, '').split('/');
  step.operation.path.split('/').forEach((seg, i) => {
    const m = /^\{(.+)\}$/.exec(seg);
    if (m && decodeURIComponent(inner[i] ?? '') === value) places.push(`path.${m[1]}`);
  });
  for (const [name, v] of url.searchParams) if (v === value) places.push(`query.${name}`);
  for (const { name, value: v } of step.entry.request.headers) {
    if (name.toLowerCase() === 'authorization' && v === `Bearer ${value}`) places.push('security.bearerAuth');
    else if (name.toLowerCase() === 'x-api-key' && v === value) places.push('security.storeApiKey');
  }
  const text = step.entry.request.postData?.text;
  if (text && /json/i.test(step.entry.request.postData?.mimeType ?? '') && !step.entry.request.postData?._truncated) {
    try {
      for (const [k, v] of Object.entries<unknown>(JSON.parse(text))) if (v === value) places.push(`body.${k}`);
    } catch {
      // malformed on purpose (negative traffic): carries no captured value
    }
  }
  expect(op, step.operation.operationId).toBeDefined();
  return [...new Set(places)];
}

/** The flows the recorded traffic uses: each capture, into each later request that carries its value. */
function bindingFlows(scenarios: Scenario[]): Flow[] {
  const out: Flow[] = [];
  for (const s of scenarios) {
    for (const c of s.captures) {
      // A derived value (total_pages + 1: a page past the end) is no runtime expression: not a link.
      if (c.add !== undefined) continue;
      const producer = s.steps[c.producer];
      for (const step of s.steps.slice(c.producer + 1)) {
        for (const place of placesOf(step, c.recordedValue)) {
          out.push({ from: producer.operation.operationId, status: String(producer.recorded.status), to: step.operation.operationId, place, pointer: c.pointer });
        }
      }
    }
  }
  return out;
}

describe('OpenAPI links of the storefront spec', () => {
  const links = declaredLinks();

  it('are declared (the flows of register SF-032 and SF-033)', () => {
    expect(links.length).toBeGreaterThan(10);
  });

  it('resolve: target operation, parameter, credential, body field, and a pointer into the example answer', () => {
    const problems: string[] = [];
    for (const link of links) {
      const where = `${link.from} ${link.status} links.${link.name} ${link.place}`;
      const target = operations.get(link.to);
      if (!target) {
        problems.push(`${where}: no operation ${link.to}`);
        continue;
      }
      const [kind, name] = [link.place.slice(0, link.place.indexOf('.')), link.place.slice(link.place.indexOf('.') + 1)];
      if (kind === 'path' || kind === 'query') {
        if (!(target.parameters ?? []).some((p: any) => p.in === kind && p.name === name)) problems.push(`${where}: ${link.to} has no ${kind} parameter ${name}`);
      } else if (kind === 'security') {
        if (!(target.security ?? spec.security ?? []).some((s: any) => name in s)) problems.push(`${where}: ${link.to} is not secured by ${name}`);
      } else if (kind === 'body') {
        const schema = target.requestBody?.content?.['application/json']?.schema;
        if (!schema?.properties?.[name]) problems.push(`${where}: the request body of ${link.to} has no field ${name}`);
      } else problems.push(`${where}: parameters must be qualified (path.<name> or query.<name>)`);
      if (!link.pointer.startsWith('/')) problems.push(`${where}: ${link.pointer}`);
      else {
        const value = getPointer(link.example, link.pointer);
        if (value === undefined || value === null || typeof value === 'object') problems.push(`${where}: ${link.pointer} is not a value in the example of ${link.from} ${link.status}`);
      }
      if (!link.status.startsWith('2')) problems.push(`${where}: links belong on 2XX answers`);
    }
    expect(problems).toEqual([]);
  });

  it('are the flows the recorded traffic uses, no more and no fewer', () => {
    const fromBindings = new Set(bindingFlows(loadScenarios()).map(key));
    const fromLinks = new Set(links.map(key));
    const missingLinks = [...fromBindings].filter((k) => !fromLinks.has(k)).sort();
    const unusedLinks = [...fromLinks].filter((k) => !fromBindings.has(k)).sort();
    expect({ missingLinks, unusedLinks }, 'a binding capture with no declared link, or a link the traffic never follows').toEqual({ missingLinks: [], unusedLinks: [] });
  });
});
