// Fastify 5. The plugin is deliberately not wrapped in fastify-plugin: its content-type parsers stay
// inside its own encapsulation context, so the route gets raw Buffers while the rest of the app keeps
// Fastify's JSON parsing. Fastify enforces `bodyLimit` itself (from Content-Length and while streaming).
import type { FastifyError, FastifyInstance } from 'fastify';
import type { WebhookHandler } from '../handler.js';

export interface FastifyWebhookOptions {
  /** Route path inside the plugin's prefix; default `/`. */
  path?: string;
}

export type FastifyWebhookPlugin = (app: FastifyInstance, options: FastifyWebhookOptions) => Promise<void>;

export function toFastifyPlugin(core: WebhookHandler): FastifyWebhookPlugin {
  return async function storefrontWebhooks(app, options) {
    app.removeAllContentTypeParsers();
    // Every content type, not only application/json: the signature decides, not the label.
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: core.maxBodyBytes }, (_request, body, done) => done(null, body));

    app.setErrorHandler((error: FastifyError, _request, fastifyReply) => {
      if (error.statusCode === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        core.reportRejection({ ok: false, status: 413, reason: 'too-large', message: `body is larger than ${core.maxBodyBytes} bytes` });
        const answer = core.tooLarge();
        return fastifyReply.code(answer.status).headers(answer.headers).send(answer.body);
      }
      return fastifyReply.send(error);
    });

    app.route({
      method: ['POST', 'GET', 'PUT', 'PATCH', 'DELETE'],
      url: options.path ?? '/',
      handler: async (request, fastifyReply) => {
        const rawBody = request.body === undefined || request.body === null ? Buffer.alloc(0) : request.body;
        const answer = await core.handle({ rawBody, headers: request.headers, method: request.method });
        return fastifyReply.code(answer.status).headers(answer.headers).send(answer.body);
      },
    });
  };
}
