// Helpers shared by the webhook rules.
import type { CapturedDelivery, Outcome, ProbeResult } from '../../webhooks/types.js';

export function field(body: unknown, name: string): unknown {
  return body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
}

/** `#3 retry order.created dlv_...`: how a delivery is named in reports. */
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

/** One outcome per delivery, from a function returning that delivery's problems. */
export function perDelivery(deliveries: CapturedDelivery[], check: (d: CapturedDelivery) => string[]): Outcome[] {
  return deliveries.map((d) => ({ subject: describeDelivery(d), problems: check(d) }));
}

export function is2xx(status: number | null): boolean {
  return status !== null && status >= 200 && status <= 299;
}

export function statusText(p: ProbeResult): string {
  return p.status === null ? `no HTTP answer (${p.transportError ?? 'transport error'})` : String(p.status);
}

/** One outcome per probe of the given groups, from a function returning that probe's problems. */
export function perProbe(probes: ProbeResult[], groups: readonly ProbeResult['group'][], check: (p: ProbeResult) => string[]): Outcome[] {
  return probes.filter((p) => groups.includes(p.group)).map((p) => ({ subject: p.name, problems: check(p) }));
}
