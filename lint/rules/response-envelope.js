// Seed 2.1: every storefront response uses the envelope { message, success, content }.
// The admin API shares it (a designed decision). This rule checks every JSON response schema
// guarantees the three fields, with success a boolean.
import { collectObjectShape } from './schema-shape.js';

const ENVELOPE = ['success', 'message', 'content'];

export default function ResponseEnvelope() {
  return {
    MediaType: {
      enter(mediaType, ctx) {
        const key = ctx.key;
        if (typeof key !== 'string' || !key.includes('json')) return;
        // Only media types of responses (not request bodies).
        if (!ctx.location.pointer.includes('/responses/')) return;
        if (!mediaType.schema) {
          ctx.report({ message: 'JSON response has no schema; it must be the envelope {success, message, content}.', location: ctx.location });
          return;
        }
        const shape = collectObjectShape(mediaType.schema, (node, from) => ctx.resolve(node, from));
        for (const field of ENVELOPE) {
          if (!shape.properties[field]) {
            ctx.report({ message: `Response schema lacks envelope field \`${field}\` (seed 2.1).`, location: ctx.location.child('schema') });
          } else if (!shape.required.has(field)) {
            ctx.report({ message: `Envelope field \`${field}\` must be required.`, location: ctx.location.child('schema') });
          }
        }
        const success = shape.properties.success;
        if (success && success.type !== 'boolean') {
          ctx.report({ message: 'Envelope field `success` must be a boolean.', location: ctx.location.child('schema') });
        }
      },
    },
  };
}
