// Helpers shared by the webhook rules (conformance/rules/webhooks/).
import { problem, skip, type Finding, type Judgement } from '../model.js';
import type { CapturedDelivery, ProbeResult } from '../observations/webhooks.js';

export function field(body: unknown, name: string): unknown {
  return body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
}

/** `delivery #3 (retry, order.created, dlv_...)`: how a delivery is named in reports. */
export function describeDelivery(d: CapturedDelivery): string {
  const event = field(d.body, 'event');
  const id = field(d.body, 'delivery_id');
  return `delivery #${d.seq} (${d.phase}${typeof event === 'string' ? `, ${event}` : ''}${typeof id === 'string' ? `, ${id}` : ''})`;
}

/** The values of a header (name in any case), every occurrence. */
export function headerValues(d: CapturedDelivery, name: string): string[] {
  return d.headers[name.toLowerCase()] ?? [];
}

/** Problems with a header that must be present exactly once; returns the value when it is. */
export function singleHeader(d: CapturedDelivery, name: string, problems: string[]): string | undefined {
  const values = headerValues(d, name);
  if (values.length === 0) problems.push(`${name} header is missing`);
  else if (values.length > 1) problems.push(`${name} header is sent ${values.length} times`);
  else return values[0];
  return undefined;
}

export function quote(value: unknown, max = 60): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

/** Every delivery judged by `check` (its problems, one sentence each); skipped when none arrived. */
export function perDelivery(deliveries: CapturedDelivery[], check: (d: CapturedDelivery) => string[]): Judgement {
  if (deliveries.length === 0) return skip('no delivery arrived (see sender-delivers)');
  return deliveries.flatMap((d) => check(d).map((message): Finding => problem(describeDelivery(d), message)));
}

export function is2xx(status: number | null): boolean {
  return status !== null && status >= 200 && status <= 299;
}

export function statusText(p: ProbeResult): string {
  return p.status === null ? `no HTTP answer (${p.transportError ?? 'transport error'})` : String(p.status);
}

/** Every probe of the given groups judged by `check`; skipped when none of them was sent. */
export function perProbe(probes: ProbeResult[], groups: readonly ProbeResult['group'][], check: (p: ProbeResult) => string[]): Judgement {
  const mine = probes.filter((p) => groups.includes(p.group));
  if (mine.length === 0) return skip(`no ${groups.join(' or ')} probe was sent`);
  return mine.flatMap((p) => check(p).map((message): Finding => problem(p.name, message)));
}
