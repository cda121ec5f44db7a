// Builds the request a step sends to the target: the recorded request rebased onto the target's
// base URL and store, with every bound value (inputs, and captures from earlier live responses)
// substituted where the bindings say (by default wherever the recorded value occurs).
import { requestBodyText } from './har.js';
import type { ResolvedCapture, Scenario, Step, Target, TargetPlace } from './load.js';
import { getPointer } from 'storefront-contract/contract';

export interface Substitution {
  name: string;
  from: string;
  to: string;
  into?: Target[];
}

export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

const DROPPED_HEADERS = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'accept-encoding', 'x-conformance-step']);

/** The live value of every input of a scenario: given, else its default, else the recorded text. */
export function inputValues(scenario: Scenario, given: Record<string, string>): Map<string, string> {
  const values = new Map<string, string>();
  for (const input of scenario.bindings.inputs) {
    const value = given[input.name] ?? input.default;
    if (value === undefined && input.required) throw new Error(`${scenario.name}: input ${input.name} is required (${input.description ?? `pass --input ${input.name}=<value>`})`);
    values.set(input.name, value ?? input.replaces);
  }
  return values;
}

export function substitutionsFor(step: Step, scenario: Scenario, inputs: Map<string, string>, live: Map<string, string>): Substitution[] {
  const subs: Substitution[] = scenario.bindings.inputs.map((i) => ({ name: i.name, from: i.replaces, to: inputs.get(i.name) ?? i.replaces }));
  // Later captures win over earlier ones and over inputs for the same recorded text.
  for (const c of scenario.captures) {
    if (c.producer >= step.index) continue;
    const to = live.get(c.name);
    if (to === undefined) continue;
    if (c.into?.length && !c.into.some((t) => !t.step || t.step === step.name)) continue;
    subs.push({ name: c.name, from: c.recordedValue, to, into: c.into?.filter((t) => !t.step || t.step === step.name) });
  }
  return subs.reverse();
}

/** The live value a capture takes from its producer's response, or undefined when it is not there. */
export function captureValue(capture: ResolvedCapture, body: unknown): string | undefined {
  const raw = getPointer(body, capture.pointer);
  if (raw === undefined || raw === null || typeof raw === 'object') return undefined;
  return capture.add !== undefined ? String(Number(raw) + capture.add) : String(raw);
}

function applies(sub: Substitution, place: TargetPlace, name?: string): boolean {
  if (!sub.into?.length) return true;
  return sub.into.some((t) => t.in === place && (!t.name || !name || t.name.toLowerCase() === name.toLowerCase()));
}

function replaceIn(value: string, subs: Substitution[], place: TargetPlace, name?: string): string {
  let out = value;
  const done = new Set<string>();
  for (const sub of subs) {
    if (done.has(sub.from) || !applies(sub, place, name)) continue;
    if (sub.into?.length && out === sub.from) {
      out = sub.to;
      done.add(sub.from);
    } else if (out.includes(sub.from)) {
      out = out.split(sub.from).join(sub.to);
      done.add(sub.from);
    }
  }
  return out;
}

function replaceJson(value: unknown, subs: Substitution[]): unknown {
  if (typeof value === 'string') return replaceIn(value, subs, 'body');
  if (Array.isArray(value)) return value.map((v) => replaceJson(v, subs));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceJson(v, subs)]));
  return value;
}

export function buildRequest(step: Step, subs: Substitution[], target: { baseUrl: string; storeId?: string }): OutgoingRequest {
  const recorded = new URL(step.entry.request.url);
  const inner = recorded.pathname.replace(/^\/api\/v1\/[^/]+\/storefront/, '');
  const path = inner
    .split('/')
    .map((seg) => (seg ? encodeURIComponent(replaceIn(decodeURIComponent(seg), subs, 'path')) : seg))
    .join('/');
  const store = encodeURIComponent(target.storeId ?? step.recordedStoreId);
  const url = new URL(`${target.baseUrl.replace(/\/+$/, '')}/api/v1/${store}/storefront${path}`);
  for (const [name, value] of recorded.searchParams) url.searchParams.append(name, replaceIn(value, subs, 'query', name));

  const headers: Record<string, string> = {};
  for (const { name, value } of step.entry.request.headers) {
    const lower = name.toLowerCase();
    if (DROPPED_HEADERS.has(lower) || lower.startsWith(':')) continue;
    const v = replaceIn(value, subs, 'header', lower);
    headers[lower] = headers[lower] ? `${headers[lower]}, ${v}` : v;
  }

  let body = requestBodyText(step.entry.request.postData, step.entry.request.bodySize);
  if (body !== undefined && !step.entry.request.postData?._truncated) {
    let parsed: unknown;
    let isJson = false;
    if (/json/i.test(step.entry.request.postData?.mimeType ?? '')) {
      try {
        parsed = JSON.parse(body);
        isJson = true;
      } catch {
        // malformed on purpose: substitute in the text
      }
    }
    body = isJson ? JSON.stringify(replaceJson(parsed, subs)) : replaceIn(body, subs, 'body');
  }
  return { method: step.entry.request.method.toUpperCase(), url: url.toString(), headers, body };
}
