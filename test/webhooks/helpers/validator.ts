// The delivery validator the webhook tests use, so they run whatever state the generator is in:
// 1. the generated one (src/validators, `npm run generate`) when it exists: what production uses;
// 2. else a test-only Ajv compile of spec/asyncapi/webhooks.yaml (envelope + each message's payload);
// 3. else the envelope schema file alone.
// `source` says which one ran; the receiving-kit report and the bench notes print it.
import type { ErrorObject, ValidateFunction } from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { loadDereferenced } from '../../../scripts/lib/load-spec.js';
import { specDir } from '../../../scripts/lib/spec-files.js';
import type { DeliveryValidation, DeliveryValidator } from '../../../src/webhooks/validation.js';

export type ValidatorSource = 'generated' | 'spec' | 'envelope-schema';

// Ajv is CommonJS: under NodeNext the default import is module.exports, whose `default` is the class;
// some loaders (vitest) already hand over the class. Accept both.
type Ajv2020Class = typeof Ajv2020Module.default;
const Ajv2020: Ajv2020Class = (Ajv2020Module as unknown as { default?: Ajv2020Class }).default ?? (Ajv2020Module as unknown as Ajv2020Class);
type Ajv2020 = InstanceType<Ajv2020Class>;

// Same dialect and options as the generator (scripts/generate/validators.ts), compiled at run time.
function ajv(): Ajv2020 {
  const instance = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true, validateSchema: false, logger: false });
  (addFormats as unknown as (a: unknown) => void)(instance);
  return instance;
}

function issues(errors: ErrorObject[] | null | undefined): DeliveryValidation {
  return { valid: false, errors: (errors ?? []).map((e) => ({ path: e.instancePath, message: e.message ?? 'invalid' })) };
}

function fromCompiled(envelope: ValidateFunction, byEvent: Map<string, ValidateFunction>): DeliveryValidator {
  return (body) => {
    const event = (body as { event?: unknown } | null)?.event;
    const check = (typeof event === 'string' && byEvent.get(event)) || envelope;
    return check(body) ? { valid: true, event: String(event) } : issues(check.errors);
  };
}

async function fromSpec(): Promise<DeliveryValidator> {
  const doc = await loadDereferenced('webhooks');
  const instance = ajv();
  const byEvent = new Map<string, ValidateFunction>();
  for (const message of Object.values<Record<string, any>>(doc.components?.messages ?? {})) {
    if (typeof message?.name === 'string' && message.payload) byEvent.set(message.name, instance.compile(message.payload));
  }
  if (byEvent.size === 0) throw new Error('no messages in spec/asyncapi/webhooks.yaml');
  const envelopeSchema = doc.components?.schemas?.WebhookEnvelope ?? (await envelopeFromFile());
  return fromCompiled(instance.compile(envelopeSchema), byEvent);
}

async function envelopeFromFile(): Promise<object> {
  return YAML.parse(await readFile(path.join(specDir, 'asyncapi/schemas/WebhookEnvelope.yaml'), 'utf8'));
}

let cached: Promise<{ validate: DeliveryValidator; source: ValidatorSource }> | undefined;

export function loadTestValidator(): Promise<{ validate: DeliveryValidator; source: ValidatorSource }> {
  cached ??= (async () => {
    try {
      const generated = (await import('../../../src/validators/index.js' as string)) as { validateWebhookDelivery?: DeliveryValidator };
      if (typeof generated.validateWebhookDelivery === 'function') return { validate: generated.validateWebhookDelivery, source: 'generated' as const };
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    }
    try {
      return { validate: await fromSpec(), source: 'spec' as const };
    } catch {
      return { validate: fromCompiled(ajv().compile(await envelopeFromFile()), new Map()), source: 'envelope-schema' as const };
    }
  })();
  return cached;
}
