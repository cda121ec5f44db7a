// Which browser callers may reach the workbench's control surfaces (the /__simulator routes and the
// Admin API, which by default accept any admin token): only pages served from loopback. The
// storefront API stays open to every origin, since front-end developers call it from their dev servers.
//
// A web page on another site can make the developer's browser send requests to 127.0.0.1. Browsers
// say where a request comes from (`Origin`), and a DNS-rebinding page shows its own name in `Host`;
// so a control request is refused when either names something other than this machine.
//
// Browsers send no `Origin` on a GET navigation or a no-cors GET (a link, an <img>, a <script>), but
// they do send `Sec-Fetch-Site`: `cross-site` without a loopback Origin is refused too. A loopback
// Origin keeps its pass, since a dev server on http://localhost:5173 calling http://127.0.0.1:4010 is
// `cross-site` to the browser (another host name) and is exactly the caller these routes serve.
// `same-site` passes: a site is the scheme and registrable host, ports aside, and the workbench's host
// is 127.0.0.1, localhost or an IP literal (a rebound name is refused by the Host rule), so a same-site
// page is served from this machine, another port of localhost, which the Origin rule admits anyway.
// `same-origin` and `none` (typed in the address bar, a bookmark) pass; so does no header (tools).
//
// The guard is decided by the path prefix alone (engine/pipeline.ts `isControlPath`). The sandbox's images, which
// <img> tags of front-ends on any origin load (cross-site, no Origin: refused here), are served under
// /__sandbox-assets instead, with the storefront API's open policy: read-only, and they tell nothing the
// storefront API does not (http/control-routes.ts `assetRouter`, sandbox/images.ts).
import { isIP } from 'node:net';
import type { RequestHeaders } from '../engine/exchange.js';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

function hostName(hostPort: string): string {
  const trimmed = hostPort.trim().toLowerCase();
  if (trimmed.startsWith('[')) return trimmed.slice(0, trimmed.indexOf(']') + 1);
  return trimmed.split(':')[0];
}

/** True for a host name of this machine's loopback (`localhost`, `127.0.0.1`, `::1` with or without brackets): what `--host` may name to stay off the network. */
export function isLoopbackName(host: string): boolean {
  const name = host.trim().toLowerCase();
  return LOOPBACK_NAMES.has(name) || LOOPBACK_NAMES.has(`[${name}]`);
}

/** True for an Origin on this machine: http(s)://localhost, 127.0.0.1 or [::1], any port. */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_NAMES.has(url.hostname.toLowerCase());
  } catch {
    return false;
  }
}

/** True for a Host header that cannot be a rebound name: an IP literal or localhost. */
function isDirectHost(host: string | undefined): boolean {
  if (host === undefined) return true;
  const name = hostName(host);
  return name === 'localhost' || isIP(name.replace(/^\[|\]$/g, '')) !== 0;
}

/**
 * Why a request to a control surface is refused, or undefined when it may proceed. `inProcess`: handed over
 * without a network (MSW, a client's fetch): no name was resolved, so the Host rule has nothing to guard
 * (an app's node:http client sends its base URL's host, `shop.test`), while a page's Origin still counts.
 */
export function refuseForeignCaller(headers: RequestHeaders, inProcess = false): string | undefined {
  const origin = headers.origin;
  if (origin !== undefined && origin !== 'null' && !isLoopbackOrigin(origin)) {
    return `requests from the web page at ${origin.slice(0, 100)} are refused: the workbench's control routes answer only pages served from this machine (localhost) and tools without an Origin`;
  }
  if (origin === 'null') return 'requests from an opaque origin (sandboxed page or file) are refused on the workbench\'s control routes';
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string' && site.trim().toLowerCase() === 'cross-site' && (origin === undefined || !isLoopbackOrigin(origin))) {
    return 'requests a browser marks "Sec-Fetch-Site: cross-site" (a link, image or script on another site\'s page) are refused on the workbench\'s control routes: open them from the address bar, a page on localhost, or a tool';
  }
  if (!inProcess && !isDirectHost(headers.host)) {
    return `Host "${String(headers.host).slice(0, 100)}" is refused on the workbench's control routes: use 127.0.0.1, localhost or an IP address`;
  }
  return undefined;
}
