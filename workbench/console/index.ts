// The workbench console: one page at /console to see and drive the sandbox and its webhooks (the live
// request log, the world, subscriptions and attempts with signature verdicts, raising events, the back
// office). Everything is a control route of the pipeline (http/control-routes.ts), so the page, its files
// and its calls get the local-caller guard of /__simulator (http/local-origin.ts: a foreign Origin, a
// cross-site fetch or a rebound Host is refused), the matcher's 404/405 and the one error writer. The
// page's writes reuse what exists: the back office (createBackOfficeClient), the Admin webhook API and
// the simulator's trigger route; only reads that had no route are added here, under /__simulator/console.
import { fail } from '../http/errors.js';
import type { ControlRoute, WorkbenchExtension } from '../http/extension.js';
import type { RequestFeed } from '../http/request-feed.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { Simulator } from '../simulator/index.js';
import { consoleAssets } from './assets.js';
import { browse } from './browse.js';
import { eventForms } from './events.js';
import { FeedStream, MAX_STREAMS, STREAM_HEADERS, type StreamOptions, type StreamStats } from './stream.js';
import { attempts, subscriptions } from './webhooks.js';

export const CONSOLE_PAGE = '/console';
export const CONSOLE_API = '/__simulator/console';

/** Paths the request feed does not record: the console's own page, files, stream and reads. */
export function isConsolePath(pathname: string): boolean {
  return pathname === CONSOLE_PAGE || pathname.startsWith(`${CONSOLE_PAGE}/`) || pathname === CONSOLE_API || pathname.startsWith(`${CONSOLE_API}/`);
}

export interface ConsoleParts {
  feed: RequestFeed;
  sandbox?: Sandbox;
  simulator?: Simulator;
  stream?: Omit<StreamOptions, 'after'>;
}

export interface WorkbenchConsole {
  extension: WorkbenchExtension;
  /** The request log it shows (every request but the console's own). */
  feed: RequestFeed;
  /** The open log streams (one per page), for tests and the console's own status. */
  streams(): StreamStats[];
}

export function createConsole(parts: ConsoleParts): WorkbenchConsole {
  const open = new Set<FeedStream>();
  // Each recorded webhook attempt pings the open pages (they re-read the attempts), while any page is open.
  let unwatch: (() => void) | undefined;
  const watchAttempts = () => {
    if (unwatch || !parts.simulator) return;
    unwatch = parts.simulator.onAttempt((d) => {
      for (const stream of open) stream.send('attempt', { delivery_id: d.delivery_id, webhook_id: d.webhook_id, event: d.event, status: d.status, outcome: d.outcome });
    });
  };
  const closed = (stream: FeedStream) => {
    open.delete(stream);
    if (open.size === 0 && unwatch) {
      unwatch();
      unwatch = undefined;
    }
  };
  const ok = (body: unknown) => ({ status: 200, body });
  const noSandbox = () => fail(404, 'not_found', 'This workbench runs without the sandbox (another storefront document or dynamic mode): there is no world to browse.');
  const noSimulator = () => fail(404, 'not_found', 'This workbench runs without the webhook simulator (webhooks: false).');
  const file = (pick: 'html' | 'js' | 'css', contentType: string) => async () => {
    const assets = await consoleAssets();
    return { status: 200 as const, bytes: assets[pick], contentType };
  };

  const routes: ControlRoute[] = [
    { method: 'GET', path: CONSOLE_PAGE, summary: 'the workbench console: the live request log, the world, webhooks and their attempts, events, the back office', handle: file('html', 'text/html; charset=utf-8') },
    { method: 'GET', path: `${CONSOLE_PAGE}/console.js`, summary: "the console's script (Preact + htm, bundled)", handle: file('js', 'text/javascript; charset=utf-8') },
    { method: 'GET', path: `${CONSOLE_PAGE}/console.css`, summary: "the console's stylesheet", handle: file('css', 'text/css; charset=utf-8') },
    {
      method: 'GET',
      path: CONSOLE_API,
      summary: 'what the console can show: {sandbox, webhooks, streams}',
      handle: () => ok({ sandbox: Boolean(parts.sandbox), webhooks: Boolean(parts.simulator), streams: [...open].map((s) => s.stats), feed_capacity: parts.feed.capacity }),
    },
    { method: 'GET', path: `${CONSOLE_API}/requests`, summary: 'the request log held (newest last): method, path, status, ms, operation, store, error envelope', handle: () => ok({ requests: parts.feed.recent() }) },
    {
      method: 'GET',
      path: `${CONSOLE_API}/requests/stream`,
      summary: 'the request log as Server-Sent Events (`event: request`, `event: dropped` with a count for a page that reads too slowly); at most 32 open at once (409 past that)',
      handle: ({ headers, query }) => {
        // Each open page holds up to queueLimit entries and a socket's buffer: their number is bounded too.
        const max = parts.stream?.maxStreams ?? MAX_STREAMS;
        if (open.size >= max) return fail(409, 'conflict', `${open.size} console pages already stream the request log (at most ${max}): close one, then reload.`);
        const last = Number(headers['last-event-id'] ?? query.get('after') ?? 0);
        const stream: FeedStream = new FeedStream(parts.feed, { ...parts.stream, after: Number.isSafeInteger(last) && last > 0 ? last : 0 }, () => closed(stream));
        open.add(stream);
        watchAttempts();
        return { status: 200, headers: { ...STREAM_HEADERS }, stream: stream.body };
      },
    },
    {
      method: 'GET',
      path: `${CONSOLE_API}/requests/{id}`,
      summary: 'one logged request: headers (credentials masked) and bodies (at most 8 KB each)',
      handle: ({ params }) => {
        const detail = /^\d{1,12}$/.test(params.id) ? parts.feed.detail(Number(params.id)) : undefined;
        return detail ? ok(detail) : fail(404, 'not_found', `No logged request ${params.id.slice(0, 20)}: the log holds the last ${parts.feed.capacity}.`, [{ location: 'path', name: 'id', message: 'not in the log' }]);
      },
    },
    { method: 'GET', path: `${CONSOLE_API}/events`, summary: 'the event catalog with each payload model as form fields, and its example values', handle: async () => ok({ events: await eventForms() }) },
    {
      method: 'GET',
      path: `${CONSOLE_API}/stores/{store_id}/browse/{resource}`,
      summary: 'products, carts, orders or customers of the store, searched (?q=) and paged (?offset=, ?limit= up to 50), with the storefront calls returning each',
      handle: ({ params, query }) => (parts.sandbox ? browse(parts.sandbox, params.store_id, params.resource, query) : noSandbox()),
    },
    {
      method: 'GET',
      path: `${CONSOLE_API}/stores/{store_id}/webhooks`,
      summary: "the store's subscriptions (listWebhooks' answer)",
      handle: ({ params }) => (parts.simulator ? subscriptions(parts.simulator, params.store_id) : noSimulator()),
    },
    {
      method: 'GET',
      path: `${CONSOLE_API}/stores/{store_id}/attempts`,
      summary: "the store's delivery attempts (listDeliveries' filters) with the signature header sent and whether it verifies with the subscription's secret",
      handle: ({ params, query }) => (parts.simulator ? attempts(parts.simulator, params.store_id, query) : noSimulator()),
    },
  ];
  return { extension: { controlRoutes: routes }, feed: parts.feed, streams: () => [...open].map((s) => s.stats) };
}

/** The console's routes, for GET /__simulator's list. */
export const CONSOLE_ROUTE_SUMMARY = 'GET /console: the workbench console (live request log, world, webhooks with signature verdicts, events, back office)';
