// The workbench console's page: Preact + htm (tagged templates, no JSX compile), bundled by esbuild
// (../bundle.ts). One store at a time; five views: the live request log (Server-Sent Events), the world,
// webhooks (subscriptions, attempts with signature verdicts, retry, replay, send test), raising events from
// a form built from the event's schema, and the back office's buttons. Landmarks (banner, navigation,
// main), labelled controls, a polite live region that announces what changed, keyboard reachable
// throughout (native buttons, inputs and links only).
import { render } from 'preact';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { html } from 'htm/preact';
import type { FeedSummary } from '../../http/request-feed.js';
import type { EventField } from '../events.js';
import type { WebhookEventName } from 'storefront-contract';
import type { WorkbenchOperations } from 'storefront-contract/workbench';

/** What the world view browses: the browse operation's `resource`. */
type Browsable = WorkbenchOperations['browseStore']['parameters']['path']['resource'];
import { adminApi, answered, CallError, clientLine, curlLine, workbenchApi, forgetToken, office, runStorefront, type StorefrontCall } from './api.js';

type View = 'log' | 'world' | 'webhooks' | 'events' | 'office';
const VIEWS: Array<[View, string]> = [
  ['log', 'Requests'],
  ['world', 'World'],
  ['webhooks', 'Webhooks'],
  ['events', 'Raise events'],
  ['office', 'Back office'],
];

// The wire shapes, as the server declares them (type-only imports: nothing of the server is bundled).
type LogEntry = FeedSummary;

const MAX_SHOWN = 300;
const initialStore = new URLSearchParams(location.search).get('store') || 'demo-store';
const initialView = (VIEWS.find(([v]) => `#${v}` === location.hash)?.[0] ?? 'log') as View;

/** Announces a sentence to screen readers (the polite live region of the page). */
let announce: (text: string) => void = () => {};

function errorText(e: unknown): string {
  if (e instanceof CallError) return `${e.status}${e.code ? ` ${e.code}` : ''}: ${e.message}`;
  return e instanceof Error ? e.message : String(e);
}

function statusClass(status: number | null): string {
  if (status === null) return 'st-none';
  if (status >= 500) return 'st-5xx';
  if (status >= 400) return 'st-4xx';
  return 'st-2xx';
}

// ---- the app ----------------------------------------------------------------------------------------

function App() {
  const [store, setStore] = useState(initialStore);
  const [draftStore, setDraftStore] = useState(initialStore);
  const [view, setView] = useState<View>(initialView);
  const [token, setToken] = useState(sessionStorage.getItem('sfc-admin-token') || 'console');
  const [entries, setEntries] = useState<LogEntry[]>([]);
  const [dropped, setDropped] = useState(0);
  const [connected, setConnected] = useState(false);
  const [attemptTick, setAttemptTick] = useState(0);
  const [message, setMessage] = useState('');
  announce = setMessage;

  // One stream for the page's life: the request log, plus a ping for each recorded webhook attempt.
  useEffect(() => {
    const source = new EventSource('/__simulator/console/requests/stream');
    source.onopen = () => setConnected(true);
    source.onerror = () => setConnected(false);
    source.addEventListener('request', (e) => {
      const entry = JSON.parse((e as MessageEvent).data) as LogEntry;
      setEntries((list) => (list.length >= MAX_SHOWN ? [...list.slice(list.length - MAX_SHOWN + 1), entry] : [...list, entry]));
    });
    source.addEventListener('dropped', (e) => setDropped((n) => n + (JSON.parse((e as MessageEvent).data).count as number)));
    source.addEventListener('attempt', () => setAttemptTick((n) => n + 1));
    return () => source.close();
  }, []);

  const choose = (v: View) => {
    setView(v);
    history.replaceState(null, '', `${location.pathname}${location.search}#${v}`);
  };

  return html`
    <header class="top">
      <h1>Workbench console</h1>
      <form class="store" onSubmit=${(e: Event) => { e.preventDefault(); setStore(draftStore.trim() || 'demo-store'); announce(`Store ${draftStore}`); }}>
        <label for="store">Store</label>
        <input id="store" name="store" value=${draftStore} onInput=${(e: any) => setDraftStore(e.currentTarget.value)} autocomplete="off" spellcheck=${false} />
        <button type="submit">Open</button>
      </form>
      <div class="token">
        <label for="admin-token">Admin token</label>
        <input id="admin-token" value=${token} onInput=${(e: any) => { setToken(e.currentTarget.value); sessionStorage.setItem('sfc-admin-token', e.currentTarget.value); }} autocomplete="off" />
      </div>
      <p class="conn" aria-label="Live log connection">${connected ? 'live' : 'connecting…'}</p>
    </header>
    <nav aria-label="Console views">
      <ul>
        ${VIEWS.map(([v, label]) => html`<li><button type="button" class="tab" aria-current=${view === v ? 'page' : undefined} onClick=${() => choose(v)}>${label}</button></li>`)}
      </ul>
    </nav>
    <main id="main" tabindex="-1">
      ${view === 'log' && html`<${LogView} entries=${entries} dropped=${dropped} store=${store} />`}
      ${view === 'world' && html`<${WorldView} store=${store} />`}
      ${view === 'webhooks' && html`<${WebhooksView} store=${store} token=${token} tick=${attemptTick} />`}
      ${view === 'events' && html`<${EventsView} store=${store} />`}
      ${view === 'office' && html`<${OfficeView} store=${store} />`}
    </main>
    <p class="sr-only" role="status" aria-live="polite">${message}</p>
  `;
}

// ---- live request log --------------------------------------------------------------------------------

function LogView({ entries, dropped, store }: { entries: LogEntry[]; dropped: number; store: string }) {
  const [onlyStore, setOnlyStore] = useState(true);
  const [showOwn, setShowOwn] = useState(false);
  const [operation, setOperation] = useState('');
  const [status, setStatus] = useState('');
  const [open, setOpen] = useState<number | null>(null);
  const operations = useMemo(() => [...new Set(entries.map((e) => e.operation).filter(Boolean) as string[])].sort(), [entries]);
  const matching = entries.filter(
    (e) =>
      (!onlyStore || e.store === store || e.store === null) &&
      (!operation || e.operation === operation) &&
      (!status || (status === 'error' ? (e.status ?? 0) >= 400 : String(e.status ?? '-').startsWith(status[0]))),
  );
  // The workbench's own reads (this page's and the back office's GETs under /__simulator) are hidden unless asked for.
  const own = matching.filter((e) => e.own).length;
  // Newest first, as the webhook attempts are.
  const shown = matching.filter((e) => showOwn || !e.own).reverse();
  return html`
    <section aria-labelledby="log-title">
      <h2 id="log-title">Live request log</h2>
      <p class="hint">Every storefront, admin and back-office request the workbench answers, newest first, as it happens (Server-Sent Events). Open one to see its headers (credentials masked) and bodies.</p>
      <form class="filters" onSubmit=${(e: Event) => e.preventDefault()}>
        <label><input type="checkbox" checked=${onlyStore} onChange=${(e: any) => setOnlyStore(e.currentTarget.checked)} /> Only store ${store}</label>
        <label><input type="checkbox" id="f-own" checked=${showOwn} onChange=${(e: any) => setShowOwn(e.currentTarget.checked)} /> Show the workbench's own reads (GET /__simulator/…)${!showOwn && own > 0 ? html` <span class="count">(${own} hidden)</span>` : ''}</label>
        <label for="f-op">Operation</label>
        <select id="f-op" value=${operation} onChange=${(e: any) => setOperation(e.currentTarget.value)}>
          <option value="">all</option>
          ${operations.map((o) => html`<option value=${o}>${o}</option>`)}
        </select>
        <label for="f-status">Status</label>
        <select id="f-status" value=${status} onChange=${(e: any) => setStatus(e.currentTarget.value)}>
          <option value="">all</option>
          <option value="2XX">2XX</option>
          <option value="4XX">4XX</option>
          <option value="5XX">5XX</option>
          <option value="error">4XX and 5XX</option>
        </select>
      </form>
      ${dropped > 0 && html`<p class="warn" role="alert">${dropped} log entries were dropped because this page read too slowly.</p>`}
      <div class="split">
        <div class="log" tabindex="0" role="log" aria-label="Requests, newest first" aria-live="polite" aria-relevant="additions"><ol>
          ${shown.length === 0 && html`<li class="empty">No request yet${own > 0 ? ' (other than the workbench\'s own reads, hidden)' : ''}. Call the storefront API (or run a call from the World view) and it appears here.</li>`}
          ${shown.map(
            (e) => html`<li key=${e.id}>
              <button type="button" class="entry" aria-expanded=${open === e.id} aria-controls="request-detail" onClick=${() => setOpen(e.id)} data-id=${e.id} data-operation=${e.operation ?? ''} data-own=${e.own ? 'true' : undefined}>
                <span class=${`status ${statusClass(e.status)}`}>${e.status ?? '—'}</span>
                <span class="method">${e.method}</span>
                <span class="path">${e.path}</span>
                <span class="op">${e.operation ?? ''}</span>
                <span class="ms">${e.ms} ms</span>
              </button>
              ${e.error && html`<p class="envelope"><code>${e.error.code}</code> ${e.error.message}${e.error.details.length ? html` <span class="details">${e.error.details.map((d) => `${d.location ?? ''} ${d.name}: ${d.message}`).join('; ')}</span>` : ''}</p>`}
            </li>`,
          )}
        </ol></div>
        <${RequestDetail} id=${open} />
      </div>
    </section>
  `;
}

function RequestDetail({ id }: { id: number | null }) {
  const [detail, setDetail] = useState<any>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    if (id === null) return;
    setError('');
    answered(workbenchApi.GET('/console/requests/{id}', { params: { path: { id: String(id) } } })).then(setDetail, (e) => setError(errorText(e)));
  }, [id]);
  if (id === null) return html`<section id="request-detail" class="detail" aria-label="Request detail"><p class="hint">Select a request to see its headers and bodies.</p></section>`;
  if (error) return html`<section id="request-detail" class="detail" aria-label="Request detail"><p class="error">${error}</p></section>`;
  if (!detail) return html`<section id="request-detail" class="detail" aria-label="Request detail"><p>Loading…</p></section>`;
  const headers = (h: Record<string, string>) => html`<table class="kv"><tbody>${Object.entries(h).map(([k, v]) => html`<tr><th scope="row">${k}</th><td>${v}</td></tr>`)}</tbody></table>`;
  return html`<section id="request-detail" class="detail" aria-labelledby="detail-title">
    <h3 id="detail-title">${detail.method} ${detail.path} → ${detail.status ?? 'no answer'}</h3>
    <p>${detail.operation ?? 'no operation matched'} · ${detail.api} · ${detail.ms} ms · ${detail.at}</p>
    ${detail.error && html`<p class="error">Envelope: <code>${detail.error.code}</code> ${detail.error.message}</p>`}
    ${!detail.bodies_kept && html`<p class="hint">${detail.bodies_note}</p>`}
    <h4>Request headers</h4>${headers(detail.request.headers)}
    ${detail.request.body && html`<h4>Request body</h4><pre tabindex="0">${detail.request.body}</pre>`}
    <h4>Response headers</h4>${headers(detail.response.headers)}
    ${detail.response.body && html`<h4>Response body</h4><pre tabindex="0">${detail.response.body}</pre>`}
  </section>`;
}

// ---- the world ----------------------------------------------------------------------------------------

function WorldView({ store }: { store: string }) {
  const [resource, setResource] = useState('products');
  const [q, setQ] = useState('');
  const [page, setPage] = useState<any>(null);
  const [error, setError] = useState('');
  const load = useCallback(
    (text: string) => {
      setError('');
      answered(workbenchApi.GET('/console/stores/{store_id}/browse/{resource}', { params: { path: { store_id: store, resource: resource as Browsable }, query: { limit: 10, q: text } } })).then(
        (p) => {
          setPage(p);
          announce(`${p.total} ${resource} found`);
        },
        (e) => setError(errorText(e)),
      );
    },
    [store, resource],
  );
  useEffect(() => load(q), [load]);
  return html`<section aria-labelledby="world-title">
    <h2 id="world-title">World of ${store}</h2>
    <form class="filters" role="search" onSubmit=${(e: Event) => { e.preventDefault(); load(q); }}>
      <label for="w-resource">Browse</label>
      <select id="w-resource" value=${resource} onChange=${(e: any) => setResource(e.currentTarget.value)}>
        <option value="products">Products</option>
        <option value="carts">Carts</option>
        <option value="orders">Orders</option>
        <option value="customers">Customers</option>
      </select>
      <label for="w-q">Search</label>
      <input id="w-q" type="search" value=${q} onInput=${(e: any) => setQ(e.currentTarget.value)} placeholder="name, id, SKU, status…" />
      <button type="submit">Search</button>
    </form>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${page && html`<p>${page.total} ${page.resource}${page.total > page.rows.length ? `, showing ${page.rows.length}` : ''}.</p>`}
    <ul class="cards">${page?.rows.map((row: any) => html`<${Record} key=${row.id} row=${row} store=${store} />`)}</ul>
  </section>`;
}

function Record({ row, store }: { row: any; store: string }) {
  // A record with a table (a product's variants, a cart's lines) takes the row's whole width: a variants table
  // has a column per customer group and did not fit a third of a 1280 px window.
  return html`<li class=${row.variants || row.lines ? 'card wide' : 'card'} data-id=${row.id}>
    <h3>${row.title}</h3>
    <p class="sub">${row.subtitle}</p>
    <dl class="facts">${Object.entries(row.facts).map(([k, v]) => html`<div><dt>${k}</dt><dd>${String(v)}</dd></div>`)}</dl>
    ${row.variants && html`<div class="scroll" tabindex="0" role="group" aria-label="Table (scrolls sideways)"><table>
      <caption>Variants: stock and selling price per customer group</caption>
      <thead><tr><th scope="col">Variant</th><th scope="col">SKU</th><th scope="col">Stock</th>${Object.keys(row.variants[0]?.prices ?? {}).map((g) => html`<th scope="col">${g}</th>`)}</tr></thead>
      <tbody>${row.variants.map((v: any) => html`<tr><th scope="row">${v.name} <code>${v.id}</code></th><td>${v.sku}</td><td>${v.stock}</td>${Object.values(v.prices).map((p) => html`<td>${p ?? '—'}</td>`)}</tr>`)}</tbody>
    </table></div>`}
    ${row.lines && html`<div class="scroll" tabindex="0" role="group" aria-label="Table (scrolls sideways)"><table>
      <caption>Lines</caption>
      <thead><tr><th scope="col">Item</th><th scope="col">Variant</th><th scope="col">Qty</th><th scope="col">Total</th></tr></thead>
      <tbody>${row.lines.map((l: any) => html`<tr><th scope="row">${l.name}</th><td><code>${l.variant_id}</code></td><td>${l.quantity}</td><td>${l.total ?? '—'}</td></tr>`)}</tbody>
    </table></div>`}
    <details>
      <summary>Storefront calls returning it</summary>
      ${row.calls.map((c: StorefrontCall) => html`<${CallBox} call=${c} store=${store} />`)}
    </details>
  </li>`;
}

function CallBox({ call: c, store }: { call: StorefrontCall; store: string }) {
  const [answer, setAnswer] = useState<{ status: number; text: string } | null>(null);
  const run = async () => {
    try {
      const a = await runStorefront(store, c);
      setAnswer({ status: a.status, text: JSON.stringify(a.body, null, 2).slice(0, 4000) });
      announce(`${c.operationId} answered ${a.status}`);
    } catch (e) {
      setAnswer({ status: 0, text: errorText(e) });
    }
  };
  return html`<div class="call">
    <p><strong>${c.operationId}</strong></p>
    <pre tabindex="0" aria-label="as curl">${curlLine(store, c)}</pre>
    <pre tabindex="0" aria-label="as a typed-client line">${clientLine(c)}</pre>
    <button type="button" onClick=${run}>Run ${c.operationId}</button>
    ${answer && html`<p class=${statusClass(answer.status)}>Answer ${answer.status}</p><pre class="answer" tabindex="0">${answer.text}</pre>`}
  </div>`;
}

// ---- webhooks --------------------------------------------------------------------------------------------

const VERDICT_LABEL: Record<string, string> = {
  verified: 'signature verified',
  mismatch: 'signature does not verify',
  'not-sent': 'not sent yet',
  'not-kept': 'signature not kept',
  'no-secret': 'no secret (deleted)',
};

/** What an attempt's outcome means for the delivery, in words: `failed · failed` said nothing about what comes next. */
const OUTCOME_LABEL: Record<string, string> = {
  delivered: 'delivered',
  retry_scheduled: 'retry scheduled',
  failed: 'no retry left',
  webhook_disabled: 'no retry left: webhook disabled',
  cancelled: 'cancelled',
};

/** `failed · retry scheduled`, `failed · no retry left`, `succeeded · delivered`, `scheduled`. */
function attemptState(a: { status: string; outcome: string | null }): string {
  return a.outcome ? `${a.status} · ${OUTCOME_LABEL[a.outcome] ?? a.outcome}` : a.status;
}

function WebhooksView({ store, token, tick }: { store: string; token: string; tick: number }) {
  const [subs, setSubs] = useState<any[]>([]);
  const [attempts, setAttempts] = useState<any[]>([]);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [secret, setSecret] = useState<{ id: string; secret: string } | null>(null);
  // Empty, with an example as placeholder: a pre-filled URL registered with one click is one nobody listens on.
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState('order.created, order.updated');
  const [filter, setFilter] = useState('');
  const timer = useRef<number | undefined>(undefined);

  const refresh = useCallback(() => {
    Promise.all([
      answered(workbenchApi.GET('/console/stores/{store_id}/webhooks', { params: { path: { store_id: store } } })),
      answered(workbenchApi.GET('/console/stores/{store_id}/attempts', { params: { path: { store_id: store }, query: { limit: 100, ...(filter ? { webhook_id: filter } : {}) } } })),
    ]).then(
      ([w, a]) => {
        setSubs(w.content.webhooks);
        setAttempts(a.deliveries);
      },
      (e) => setError(errorText(e)),
    );
  }, [store, filter]);
  useEffect(refresh, [refresh]);
  // Attempts arrive on the stream's pings; a burst refreshes once.
  useEffect(() => {
    clearTimeout(timer.current);
    timer.current = window.setTimeout(refresh, 150);
  }, [tick]);

  const act = async (label: string, run: () => Promise<unknown>) => {
    setError('');
    try {
      await run();
      setNotice(label);
      announce(label);
      refresh();
    } catch (e) {
      setError(`${label} failed: ${errorText(e)}`);
    }
  };

  const register = (e: Event) => {
    e.preventDefault();
    act('Subscription registered', async () => {
      const list = events.split(/[\s,]+/).filter(Boolean);
      const answer = await answered(adminApi(store, token).POST('/webhooks', { body: { url, events: list as WebhookEventName[] } }));
      setSecret({ id: answer.content.webhook.id, secret: answer.content.secret });
    });
  };

  return html`<section aria-labelledby="wh-title">
    <h2 id="wh-title">Webhooks of ${store}</h2>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${notice && html`<p class="ok">${notice}</p>`}
    <form class="register" onSubmit=${register} aria-labelledby="reg-title">
      <h3 id="reg-title">Register a subscription</h3>
      <label for="wh-url">Receiver URL</label>
      <input id="wh-url" type="url" required value=${url} placeholder="http://127.0.0.1:3000/hooks" aria-describedby="wh-url-hint" onInput=${(e: any) => setUrl(e.currentTarget.value)} />
      <small id="wh-url-hint" class="hint">Where your receiver listens (for example <code>http://127.0.0.1:3000/hooks</code>).</small>
      <label for="wh-events">Events (comma-separated)</label>
      <input id="wh-events" required value=${events} onInput=${(e: any) => setEvents(e.currentTarget.value)} />
      <button type="submit">Register</button>
    </form>
    ${secret && html`<div class="secret" role="note" aria-labelledby="secret-title">
      <h3 id="secret-title">Signing secret of ${secret.id}</h3>
      <p>Shown once (the Admin API returns it only at creation and rotation): give it to your receiver now.</p>
      <output id="wh-secret" data-testid="secret">${secret.secret}</output>
      <button type="button" onClick=${() => setSecret(null)}>Hide</button>
    </div>`}
    <h3>Subscriptions</h3>
    <div class="scroll" tabindex="0" role="group" aria-label="Table (scrolls sideways)"><table class="subs">
      <thead><tr><th scope="col">Id</th><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Status</th><th scope="col">Actions</th></tr></thead>
      <tbody>
        ${subs.length === 0 && html`<tr><td colspan="5">No subscription yet.</td></tr>`}
        ${subs.map(
          (s) => html`<tr key=${s.id}>
            <th scope="row"><code>${s.id}</code></th><td>${s.url}</td><td>${s.events.join(', ')}</td>
            <td>${s.status}${s.disabled_reason ? ` (${s.disabled_reason})` : ''}</td>
            <td class="actions">
              <button type="button" onClick=${() => act(`Test ${s.events[0]} sent to ${s.id}`, () => answered(adminApi(store, token).POST('/webhooks/{id}/test', { params: { path: { id: s.id } }, body: { event: s.events[0] } })))}>Send test</button>
              <button type="button" onClick=${() => setFilter(filter === s.id ? '' : s.id)} aria-pressed=${filter === s.id}>Only its attempts</button>
            </td>
          </tr>`,
        )}
      </tbody>
    </table></div>
    <h3>Delivery attempts <button type="button" class="small" onClick=${refresh}>Refresh</button></h3>
    <div class="scroll" tabindex="0" role="group" aria-label="Table (scrolls sideways)"><table class="attempts">
      <caption>Newest first, as the request log. Times are the store's clock (it moves when you advance it; your receiver logs the wall clock). The signature is checked here with the subscription's secret, which never leaves the workbench.</caption>
      <thead><tr><th scope="col">Event</th><th scope="col">Attempt</th><th scope="col">Status</th><th scope="col">Answer</th><th scope="col" title="sent (or scheduled) at, on the store's clock">Time (store clock)</th><th scope="col">Signature</th><th scope="col">Actions</th></tr></thead>
      <tbody>
        ${attempts.length === 0 && html`<tr><td colspan="7">No attempt yet.</td></tr>`}
        ${attempts.map(
          (a) => html`<tr key=${a.delivery_id} data-event=${a.event} data-outcome=${a.outcome ?? a.status} data-verdict=${a.signature.verdict}>
            <th scope="row">${a.event}${a.is_test ? ' (test)' : ''}<br /><code>${a.event_id}</code></th>
            <td>#${a.attempt} ${a.trigger}</td>
            <td>${attemptState(a)}${a.next_retry_at ? html`<br /><small>next ${a.next_retry_at} (store clock)</small>` : ''}</td>
            <td>${a.response_status ?? a.error_class ?? '—'}${a.response_body_excerpt ? html`<br /><small class="excerpt">${a.response_body_excerpt.slice(0, 120)}</small>` : ''}</td>
            <td>${a.sent_at ?? a.scheduled_at}${a.duration_ms !== null ? html`<br /><small>${a.duration_ms} ms</small>` : ''}</td>
            <td><span class=${`verdict v-${a.signature.verdict}`} title=${a.signature.note}>${VERDICT_LABEL[a.signature.verdict]}</span>${a.signature.header ? html`<br /><small><code>${a.signature.header.slice(0, 23)}…</code></small>` : ''}</td>
            <td class="actions">
              ${a.status === 'failed' && html`<button type="button" onClick=${() => act(`Retry of ${a.delivery_id} queued`, () => answered(adminApi(store, token).POST('/webhooks/{id}/deliveries/{delivery_id}/retry', { params: { path: { id: a.webhook_id, delivery_id: a.delivery_id } } })))}>Retry</button>`}
              <button type="button" onClick=${() => act(`Event ${a.event_id} replayed`, () => answered(adminApi(store, token).POST('/webhooks/{id}/replay-event/{event_id}', { params: { path: { id: a.webhook_id, event_id: a.event_id } } })))}>Replay event</button>
            </td>
          </tr>`,
        )}
      </tbody>
    </table></div>
  </section>`;
}

// ---- raise events -------------------------------------------------------------------------------------------


const isComplex = (f: EventField) => f.types.includes('object') || f.types.includes('array');

/** A field's example value as its control holds it (JSON text for objects and arrays). */
function toText(f: EventField, value: unknown): string {
  if (value === undefined || value === null) return '';
  return isComplex(f) ? JSON.stringify(value, null, 2) : String(value);
}

/** The control's text back to the field's type; a string names the problem. */
function fromText(f: EventField, text: string): { value?: unknown; problem?: string } {
  if (text.trim() === '') {
    if (f.types.includes('null')) return { value: null };
    return f.required ? { problem: 'is required' } : {};
  }
  if (isComplex(f)) {
    try {
      return { value: JSON.parse(text) };
    } catch {
      return { problem: 'must be JSON' };
    }
  }
  if (f.types.includes('boolean')) return { value: text === 'true' };
  if (f.types.includes('integer') || f.types.includes('number')) return { value: Number(text) };
  return { value: text };
}

function EventsView({ store }: { store: string }) {
  const [forms, setForms] = useState<Array<{ event: string; title: string; summary: string; fields: EventField[]; example: Record<string, unknown> }>>([]);
  const [event, setEvent] = useState('order.created');
  const [values, setValues] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [result, setResult] = useState('');
  useEffect(() => {
    answered(workbenchApi.GET('/console/events')).then((r) => setForms(r.events as typeof forms), (e) => setResult(errorText(e)));
  }, []);
  const form = forms.find((f) => f.event === event);
  useEffect(() => {
    if (form) setValues(Object.fromEntries(form.fields.map((f) => [f.name, toText(f, form.example[f.name])])));
    setProblems({});
  }, [form]);

  const send = async (e: Event) => {
    e.preventDefault();
    if (!form) return;
    const properties: Record<string, unknown> = {};
    const found: Record<string, string> = {};
    for (const f of form.fields) {
      const { value, problem } = fromText(f, values[f.name] ?? '');
      if (problem) found[f.name] = problem;
      else if (value !== undefined) properties[f.name] = value;
    }
    setProblems(found);
    if (Object.keys(found).length) {
      setResult('Fix the fields marked below.');
      return;
    }
    try {
      const answer = await answered(workbenchApi.POST('/stores/{store_id}/events', { params: { path: { store_id: store } }, body: { event, properties } }));
      const c = answer.content;
      setResult(`Raised ${c.event} ${c.event_id}: ${c.deliveries.length} delivery attempt(s) queued.`);
      announce(`Raised ${c.event}`);
    } catch (err) {
      // The server's validation: each detail names the field (payload.properties.<name>...).
      if (err instanceof CallError) {
        const byField: Record<string, string> = {};
        for (const d of err.details) {
          const name = d.name.replace(/^(payload\.)?properties\./, '').split(/[.[]/)[0];
          byField[form.fields.some((f) => f.name === name) ? name : '(form)'] = `${d.name}: ${d.message}`;
        }
        setProblems(byField);
      }
      setResult(`Refused: ${errorText(err)}`);
    }
  };

  return html`<section aria-labelledby="ev-title">
    <h2 id="ev-title">Raise an event in ${store}</h2>
    <p class="hint">The form is built from the event's schema in the AsyncAPI catalog and starts from its example; the simulator validates the whole envelope again when you send it.</p>
    <label for="ev-name">Event</label>
    <select id="ev-name" value=${event} onChange=${(e: any) => setEvent(e.currentTarget.value)}>
      ${forms.map((f) => html`<option value=${f.event}>${f.event} — ${f.title}</option>`)}
    </select>
    ${form && html`<form class="event-form" onSubmit=${send} noValidate>
      <p>${form.summary}</p>
      ${problems['(form)'] && html`<p class="error">${problems['(form)']}</p>`}
      ${form.fields.map((f) => html`<${FieldControl} key=${`${event}:${f.name}`} field=${f} value=${values[f.name] ?? ''} problem=${problems[f.name]} onChange=${(v: string) => setValues((old) => ({ ...old, [f.name]: v }))} />`)}
      <button type="submit">Raise ${event}</button>
    </form>`}
    <p role="status" class="result">${result}</p>
  </section>`;
}

function FieldControl({ field: f, value, problem, onChange }: { field: EventField; value: string; problem?: string; onChange: (v: string) => void }) {
  const id = `f-${f.name}`;
  const hint = [f.types.join(' or '), f.format, f.minimum !== undefined ? `≥ ${f.minimum}` : '', f.maximum !== undefined ? `≤ ${f.maximum}` : ''].filter(Boolean).join(', ');
  const described = `${id}-hint${problem ? ` ${id}-problem` : ''}`;
  const common = { id, name: f.name, 'aria-describedby': described, 'aria-invalid': problem ? 'true' : undefined, onInput: (e: any) => onChange(e.currentTarget.value), onChange: (e: any) => onChange(e.currentTarget.value) };
  let control;
  if (f.enum) {
    control = html`<select ...${common} value=${value}>${f.types.includes('null') ? html`<option value="">null</option>` : ''}${f.enum.filter((v) => v !== null).map((v) => html`<option value=${String(v)}>${String(v)}</option>`)}</select>`;
  } else if (f.types.includes('boolean')) {
    control = html`<select ...${common} value=${value}><option value="true">true</option><option value="false">false</option>${f.types.includes('null') ? html`<option value="">null</option>` : ''}</select>`;
  } else if (isComplex(f)) {
    control = html`<textarea ...${common} rows=${Math.min(10, value.split('\n').length + 1)} spellcheck=${false}>${value}</textarea>`;
  } else if (f.types.includes('number') || f.types.includes('integer')) {
    control = html`<input ...${common} type="number" step=${f.types.includes('integer') ? '1' : 'any'} min=${f.minimum} max=${f.maximum} value=${value} required=${f.required && !f.types.includes('null')} />`;
  } else {
    control = html`<input ...${common} type="text" value=${value} minLength=${f.minLength} maxLength=${f.maxLength} required=${f.required && !f.types.includes('null')} />`;
  }
  return html`<div class=${`field${problem ? ' invalid' : ''}`}>
    <label for=${id}>${f.name}${f.required ? html` <span aria-hidden="true">*</span><span class="sr-only">(required)</span>` : ''}</label>
    ${control}
    <small id=${`${id}-hint`}>${hint}${f.description ? ` — ${f.description}` : ''}</small>
    ${problem && html`<small id=${`${id}-problem`} class="error">${problem}</small>`}
  </div>`;
}

// ---- back office --------------------------------------------------------------------------------------------

const STATUSES = ['confirmed', 'processing', 'shipped', 'delivered', 'returned', 'cancelled'];

/** What the back office view keeps while another view is shown: the last order placed and the results. */
const officeMemory: { order: string; log: Array<{ ok: boolean; text: string }> } = { order: '', log: [] };

function OfficeView({ store }: { store: string }) {
  const [world, setWorld] = useState<any>(null);
  const [cart, setCart] = useState('');
  const [order, setOrderState] = useState(officeMemory.order);
  const setOrder = (value: string) => {
    officeMemory.order = value;
    setOrderState(value);
  };
  const [status, setStatus] = useState('confirmed');
  const [product, setProduct] = useState('');
  const [stock, setStock] = useState('0');
  const [advance, setAdvance] = useState('PT10M');
  const [clock, setClock] = useState<any>(null);
  const [log, setLogState] = useState(officeMemory.log);
  const setLog = (update: (l: typeof officeMemory.log) => typeof officeMemory.log) => setLogState((l) => (officeMemory.log = update(l)));
  const bo = office(store);

  const load = useCallback(() => {
    bo.getWorld().then((w) => {
      setWorld(w);
      const active = w.carts.filter((c: any) => c.active && c.items > 0);
      setCart((old) => (active.some((c: any) => c.id === old) ? old : active[0]?.id ?? ''));
      setProduct((old) => old || w.products.one_variant?.[0]?.id || w.products.first?.[0]?.id || '');
    }, (e) => say(false, errorText(e)));
    bo.getClock().then(setClock, () => undefined);
  }, [store]);
  useEffect(load, [load]);

  const say = (ok: boolean, text: string) => {
    setLog((l) => [{ ok, text }, ...l].slice(0, 20));
    announce(text);
  };
  const act = async (label: string, run: () => Promise<string>) => {
    try {
      say(true, `${label}: ${await run()}`);
      load();
    } catch (e) {
      say(false, `${label} failed: ${errorText(e)}`);
    }
  };

  const activeCarts = (world?.carts ?? []).filter((c: any) => c.active && c.items > 0);
  return html`<section aria-labelledby="bo-title">
    <h2 id="bo-title">Back office of ${store}</h2>
    <p class="hint">Outside the contract: the sandbox's staff actions (POST /__simulator/stores/${store}/…). Each raises its webhooks.</p>
    <div class="office">
      <form aria-labelledby="bo-order" onSubmit=${(e: Event) => { e.preventDefault(); act('Place an order', async () => { const r = await bo.placeOrder({ cart_id: cart }); setOrder(r.order.order_number); return `order ${r.order.order_number} (${r.events.map((x) => x.event).join(', ')})`; }); }}>
        <h3 id="bo-order">Place an order</h3>
        <label for="bo-cart">Cart</label>
        <select id="bo-cart" value=${cart} onChange=${(e: any) => setCart(e.currentTarget.value)}>
          ${activeCarts.map((c: any) => html`<option value=${c.id}>${c.id} · ${c.items} item(s) · ${c.grand_total}</option>`)}
        </select>
        <button type="submit" disabled=${!cart}>Place an order</button>
      </form>
      <form aria-labelledby="bo-status" onSubmit=${(e: Event) => { e.preventDefault(); act('Move the order', async () => { const r = await bo.moveOrder({ order_number: order }, { status: status as never }); return `${r.order.order_number} is ${r.order.status}`; }); }}>
        <h3 id="bo-status">Move an order's status</h3>
        <label for="bo-order-number">Order number</label>
        <input id="bo-order-number" value=${order} onInput=${(e: any) => setOrder(e.currentTarget.value)} required />
        <label for="bo-new-status">New status</label>
        <select id="bo-new-status" value=${status} onChange=${(e: any) => setStatus(e.currentTarget.value)}>${STATUSES.map((s) => html`<option value=${s}>${s}</option>`)}</select>
        <button type="submit">Move status</button>
      </form>
      <form aria-labelledby="bo-stock" onSubmit=${(e: Event) => { e.preventDefault(); act('Change stock', async () => { const r = await bo.moveStock({ product_id: product, stock_quantity: Number(stock) }); return JSON.stringify(r).slice(0, 160); }); }}>
        <h3 id="bo-stock">Change stock</h3>
        <label for="bo-product">Product id</label>
        <input id="bo-product" value=${product} onInput=${(e: any) => setProduct(e.currentTarget.value)} required />
        <label for="bo-quantity">Units in stock</label>
        <input id="bo-quantity" type="number" min="0" step="1" value=${stock} onInput=${(e: any) => setStock(e.currentTarget.value)} required />
        <button type="submit">Set stock</button>
      </form>
      <form aria-labelledby="bo-clock" onSubmit=${(e: Event) => { e.preventDefault(); act('Advance the clock', async () => { const r = await bo.setClock({ advance }); setClock(r); return `store time ${r.now}${r.attempts_due_on_the_way ? `, ${r.attempts_due_on_the_way} webhook attempt(s) due on the way` : ''}`; }); }}>
        <h3 id="bo-clock">Store clock</h3>
        <p>Now: <time>${clock?.now ?? '…'}</time>${clock && !clock.wall_clock ? ' (moved)' : ''}</p>
        <label for="bo-advance">Advance by (ISO 8601 duration)</label>
        <input id="bo-advance" value=${advance} onInput=${(e: any) => setAdvance(e.currentTarget.value)} pattern="P.*" required />
        <button type="submit">Advance clock</button>
        <button type="button" onClick=${() => act('Back to the wall clock', async () => { const r = await bo.releaseClock(); setClock(r); return r.now; })}>Release clock</button>
      </form>
      <form aria-labelledby="bo-reset" onSubmit=${(e: Event) => { e.preventDefault(); act('Reset the store', async () => { const r = await bo.resetStore(); forgetToken(store); return `${r.store_id} back to its seed (${r.counts.orders} orders, ${r.counts.carts} carts)`; }); }}>
        <h3 id="bo-reset">Reset the store</h3>
        <p>Drops every write to ${store} (orders, carts, stock, customers) and rebuilds its world from the seed.</p>
        <button type="submit" class="danger">Reset store</button>
      </form>
    </div>
    <h3>Results</h3>
    <ul class="results">${log.map((l) => html`<li class=${l.ok ? 'ok' : 'error'}>${l.text}</li>`)}</ul>
  </section>`;
}

render(html`<${App} />`, document.getElementById('app')!);
