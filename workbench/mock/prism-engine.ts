// Prism's engine (`@stoplight/prism-http`, in process) for the answers only Prism can give:
// `Prefer: code=/example=/dynamic=`, Accept negotiation and dynamic (faker) bodies. It is loaded
// lazily because requiring it takes most of a second (faker); the default answers never wait on it.
import { createRequire } from 'node:module';
import { loadDocument } from '../contract/model.js';
import { MockHttpError, type ErrorCode } from '../http/errors.js';
import type { CachedResponse, OperationModel } from './spec-model.js';
import type { Preferences } from './prefer.js';

export interface PrismInput {
  method: string;
  /** Path inside the document (the mount prefix stripped): Prism ignores server base paths. */
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body: unknown;
}

interface Loaded {
  prism: any;
  operations: Map<string, any>;
}

const require = createRequire(import.meta.url);

// Prism logs every request and body through pino at debug level; the front writes its own
// one-line log, so Prism gets a logger that drops everything.
const noop = () => {};
const silentLogger: any = { level: 'silent', info: noop, debug: noop, warn: noop, error: noop, fatal: noop, trace: noop, success: noop, start: noop, log: noop };
silentLogger.child = () => silentLogger;

/** Who answers what only the spec's examples can: Prism in Node, a refusal where it cannot run. */
export interface AnswerEngine {
  load(): Promise<unknown>;
  respond(op: OperationModel, input: PrismInput, prefs: Preferences, dynamicByDefault: boolean): Promise<CachedResponse>;
}

export class PrismEngine implements AnswerEngine {
  private loading?: Promise<Loaded>;

  constructor(private readonly specFile: string) {}

  /** Starts loading Prism and the operations; safe to call many times. */
  load(): Promise<Loaded> {
    this.loading ??= (async () => {
      const { createInstance, getHttpOperationsFromSpec } = require('@stoplight/prism-http');
      // The contract model's document (read once per process), copied: Prism's loader rewrites what it is given.
      const list: any[] = await getHttpOperationsFromSpec(structuredClone((await loadDocument(this.specFile)).document));
      const operations = new Map<string, any>();
      for (const op of list) operations.set(`${op.method} ${op.path}`, op);
      const prism = createInstance(baseConfig({}, false), { logger: silentLogger });
      return { prism, operations };
    })();
    return this.loading;
  }

  async respond(op: OperationModel, input: PrismInput, prefs: Preferences, dynamicByDefault: boolean): Promise<CachedResponse> {
    const { prism, operations } = await this.load();
    const resource = operations.get(`${op.method} ${op.path}`);
    if (!resource) {
      throw new MockHttpError(500, 'internal_error', `Prism has no operation ${op.method.toUpperCase()} ${op.path}; check that the spec loads in Prism.`);
    }
    // A fresh config per request: Prism writes the request's Accept into the config it is given.
    const config = baseConfig(prefs, dynamicByDefault);
    // Only the matched operation is passed, so Prism's router cannot pick a different one.
    const result = await prism.request(
      { method: input.method, url: { path: input.path, query: input.query }, headers: input.headers, body: input.body },
      [resource],
      config,
    )();
    if (result._tag === 'Left') throw translateProblem(result.left, prefs);
    const output = result.right.output as { statusCode: number; headers?: Record<string, string>; body?: unknown };
    const headers: Record<string, string> = {};
    let isJson = true;
    for (const [name, value] of Object.entries(output.headers ?? {})) {
      if (name.toLowerCase() === 'content-type') {
        isJson = /json/i.test(String(value));
        if (!isJson) headers['content-type'] = String(value);
      } else if (value !== null && value !== undefined) {
        headers[name.toLowerCase()] = String(value);
      }
    }
    const body =
      output.body === undefined ? Buffer.alloc(0) : Buffer.from(isJson || typeof output.body !== 'string' ? JSON.stringify(output.body) : output.body);
    return { status: output.statusCode, headers, body };
  }
}

function baseConfig(prefs: Preferences, dynamicByDefault: boolean) {
  return {
    mock: {
      dynamic: prefs.dynamic ?? dynamicByDefault,
      code: prefs.code,
      exampleKey: prefs.example,
      seed: prefs.seed,
      ignoreExamples: false,
    },
    // Security and request validation are the front's job (contract envelopes, 2020-12 schemas);
    // the examples are linted, so response validation would only cost time.
    checkSecurity: false,
    validateRequest: false,
    validateResponse: false,
    errors: false,
    isProxy: false,
    upstreamProxy: undefined,
  };
}

/** Prism's problem+json errors, re-said as the contract's envelope. */
function translateProblem(error: any, prefs: Preferences): MockHttpError {
  const status: number = typeof error?.status === 'number' ? error.status : 500;
  const detail = String(error?.detail || error?.message || 'Prism could not build a response').slice(0, 300);
  const asked = prefs.code !== undefined || prefs.example !== undefined || prefs.dynamic !== undefined;
  if (asked && status === 404) {
    return new MockHttpError(400, 'invalid_parameter', `The mock cannot honour Prefer: ${detail}`, [
      { location: 'header', name: 'Prefer', message: detail },
    ]);
  }
  if (status === 406) {
    return new MockHttpError(406, 'not_acceptable', `No response matches the Accept header: ${detail}`, [
      { location: 'header', name: 'Accept', message: 'must accept application/json' },
    ]);
  }
  const code: ErrorCode = status === 404 ? 'not_found' : status < 500 ? 'invalid_parameter' : 'internal_error';
  return new MockHttpError(status >= 400 && status < 600 ? status : 500, code, `Prism: ${detail}`);
}

/**
 * Where Prism cannot run (the sandbox's browser build: Prism needs Node): a request only Prism could
 * answer (a `Prefer` control) is refused with the reason, as a 400 naming the header.
 */
export class UnavailablePrism implements AnswerEngine {
  constructor(private readonly reason: string) {}

  load(): Promise<void> {
    return Promise.resolve();
  }

  respond(): Promise<CachedResponse> {
    return Promise.reject(
      new MockHttpError(400, 'invalid_parameter', `The Prefer header cannot be honoured here: ${this.reason}`, [{ location: 'header', name: 'Prefer', message: `is not supported here: ${this.reason}` }]),
    );
  }
}
