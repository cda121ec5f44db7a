// The sending thread when the simulator runs from this repository's TypeScript sources (send-thread.ts
// picks it): tsx's loader registered on this thread, then the worker itself. The built package starts the
// compiled send-worker.js directly; this file is not shipped.
import { register } from 'tsx/esm/api';

register();
await import(new URL('./send-worker.ts', import.meta.url).href);
