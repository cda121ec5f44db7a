// Fastify 5. The plugin is deliberately not wrapped in fastify-plugin: its content-type parsers stay
// inside its own encapsulation context, so the route gets raw Buffers while the rest of the app keeps
// Fastify's JSON parsing. Fastify enforces `bodyLimit` itself (from Content-Length and while streaming).
//
// The Fastify types used here are written structurally (the few members the plugin calls) instead of
// imported from 'fastify', so a consumer type-checks this package without Fastify installed, and a
// real FastifyInstance is still accepted where the plugin is registered.
import type { WebhookHandler } from '../handler.js';

export interface FastifyWebhookOptions {
  /** Route path inside the plugin's prefix; default `/`. */
  path?: string;
}

interface ReplyLike {
  code(status: number): ReplyLike;
  headers(values: Record<string, string>): ReplyLike;
  send(payload?: unknown): ReplyLike;
}

interface RequestLike {
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  method: string;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- Fastify's own generics are not reproduced here. */
/** The members of a FastifyInstance the plugin uses. */
export interface FastifyLike {
  removeAllContentTypeParsers(): void;
  addContentTypeParser(contentType: string, options: { parseAs: 'buffer'; bodyLimit?: number }, parser: (request: any, body: Buffer, done: any) => void): void;
  setErrorHandler(handler: (error: any, request: any, reply: any) => any): any;
  route(options: { method: string[]; url: string; handler: (request: any, reply: any) => Promise<any> }): any;
}

export type FastifyWebhookPlugin = (app: FastifyLike, options: FastifyWebhookOptions) => Promise<void>;

export function toFastifyPlugin(core: WebhookHandler): FastifyWebhookPlugin {
  return async function storefrontWebhooks(app, options) {
    app.removeAllContentTypeParsers();
    // Every content type, not only application/json: the signature decides, not the label.
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: core.maxBodyBytes }, (_request: unknown, body: Buffer, done: (error: Error | null, body?: Buffer) => void) => done(null, body));

    app.setErrorHandler((error: { statusCode?: number; code?: string }, _request: unknown, reply: ReplyLike) => {
      if (error.statusCode === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        core.reportRejection({ ok: false, status: 413, reason: 'too-large', message: `body is larger than ${core.maxBodyBytes} bytes` });
        const answer = core.tooLarge();
        return reply.code(answer.status).headers(answer.headers).send(answer.body);
      }
      return reply.send(error);
    });

    app.route({
      method: ['POST', 'GET', 'PUT', 'PATCH', 'DELETE'],
      url: options.path ?? '/',
      handler: async (request: RequestLike, reply: ReplyLike) => {
        const rawBody = request.body === undefined || request.body === null ? Buffer.alloc(0) : request.body;
        const answer = await core.handle({ rawBody, headers: request.headers, method: request.method });
        return reply.code(answer.status).headers(answer.headers).send(answer.body);
      },
    });
  };
}
