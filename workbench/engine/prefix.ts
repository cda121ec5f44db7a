// A base URL's path before the API's own, taken off before the engine sees the request (the MSW adapter's
// `baseUrl: 'https://shop.test/backend'`).
/**
 * The engine under a base URL that adds a path before the API's own (`https://shop.test/backend` +
 * `/api/v1/...`): the prefix is taken off, as a reverse proxy would; other requests go as they are.
 */
export function withoutPrefix(handle: (request: Request) => Promise<Response>, prefix = ''): (request: Request) => Promise<Response> {
  const strip = prefix.replace(/\/+$/, '');
  if (!strip) return handle;
  return (request) => {
    const url = new URL(request.url);
    if (url.pathname !== strip && !url.pathname.startsWith(`${strip}/`)) return handle(request);
    url.pathname = url.pathname.slice(strip.length) || '/';
    return handle(
      new Request(url, { method: request.method, headers: request.headers, body: request.body, signal: request.signal, duplex: 'half' } as RequestInit),
    );
  };
}
