// Express 5 apps. `none`: no body parser on the route, the middleware reads the stream (recommended).
// `raw`: express.raw() first. `json`: the classic mistake, express.json() globally; the receiver must refuse.
import express from 'express';
import { createServer } from 'node:http';
import type { WebhookHandler } from '../../../src/webhooks/handler.js';
import { listen, type RunningApp } from './node-app.js';

export type ExpressBodyMode = 'none' | 'raw' | 'json';

export function startExpressApp(handler: WebhookHandler, mode: ExpressBodyMode = 'none'): Promise<RunningApp> {
  const app = express();
  if (mode === 'json') app.use(express.json());
  if (mode === 'raw') app.post('/webhooks', express.raw({ type: 'application/json', limit: handler.maxBodyBytes }), handler.toExpressMiddleware());
  else app.post('/webhooks', handler.toExpressMiddleware());
  app.get('/health', (_req, res) => void res.json({ ok: true }));
  return listen(createServer(app));
}
