// The judge's thread when the proxy runs from this repository's TypeScript sources (proxy.ts picks it):
// tsx's loader registered on this thread, then the worker itself. The built package starts the compiled
// judge-worker.js directly; this file is not shipped.
import { register } from 'tsx/esm/api';

register();
await import(new URL('./judge-worker.ts', import.meta.url).href);
