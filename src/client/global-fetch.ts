// The `fetch` of a client created without one: globalThis.fetch as it is when each request is sent, not
// as it was when the client was made. openapi-fetch keeps the function it is given at creation, so a
// client created when the app's module loads would otherwise keep the fetch of that moment and miss one
// installed later: MSW's `server.listen()` in a test's `beforeAll` (msw/node patches globalThis.fetch),
// or a polyfill.
export const globalFetch: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init);
