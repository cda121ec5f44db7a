// Certification as an agent tool (the workbench's agent tools, ../../workbench/agents/, take it from the
// CLI, which sits above both): certify a storefront implementation, this workbench's sandbox by default,
// and answer a compact verdict, the failed operations and the first findings with a curl command that sends
// the same request again. The breaking-change diff and lint read the repository's history and dev tools:
// the clone's bin adds them (scripts/agent-tools.ts), as it adds `changelog`.
import { basePath } from 'storefront-contract/contract';
import { byteLength, objectSchema, ToolError, type AgentTool, type AgentToolFactory, type SandboxLink } from '../../workbench/agents/index.js';
import { loadContract as contractModelOf, type ContractDocument } from '../../workbench/contract/model.js';
import { isLoopbackOrigin } from '../../workbench/http/local-origin.js';
import { certify } from '../rest/certify.js';
import { curlLine } from '../rest/generate/request.js';

/** The budget of a certify result, in bytes of JSON: whole findings are left out past it. */
const CERTIFY_RESULT_BYTES = 12_000;

interface CertifyInput {
  base_url?: string;
  store_id?: string;
  generate?: number;
  seed?: number;
  only?: string[];
  max_findings?: number;
}

const FINDING = objectSchema(
  {
    operation_id: { type: 'string' },
    status: { type: ['integer', 'null'] },
    rule: { type: 'string' },
    severity: { type: 'string' },
    message: { type: 'string' },
    curl: { type: 'string', description: 'The request again, credentials from the environment ($STOREFRONT_API_KEY, $TOKEN): a generated case whole; a replayed one its method, URL and credentials (its body is in the recording).' },
  },
  ['curl'],
);

/** Whether the key in the environment may go to `url`: a server on this machine, or an origin the user listed. */
function mayReceiveKey(url: URL): boolean {
  if (isLoopbackOrigin(url.origin)) return true;
  return (process.env.STOREFRONT_CERTIFY_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
    .some((origin) => {
      try {
        return new URL(origin).origin === url.origin;
      } catch {
        return false;
      }
    });
}


/** The checking tools: `certify`. */
export const checkingTools: AgentToolFactory = (sandbox) => [certifyTool(sandbox)];

export function certifyTool(sandbox: SandboxLink): AgentTool {
  return {
    name: 'certify',
    title: 'Certify a storefront implementation',
    description:
      'Certify a storefront API implementation against the contract: replays the recorded traffic (and, with generate > 0, that many generated valid and invalid requests per operation, from a seed) and judges every answer. Without base_url it certifies this workbench\'s sandbox. Another server needs its store API key in STOREFRONT_CERTIFY_API_KEY, in the MCP server\'s environment, and its origin in STOREFRONT_CERTIFY_ORIGINS unless it runs on this machine. Answers the verdict, counts, the failed operations and the first findings with a curl reproduction; only what the contract states fails it, designed parts are advice.',
    inputSchema: objectSchema(
      {
        base_url: { type: 'string', pattern: '^https?://[^\\s/]+(/[^\\s]*)?$', description: 'The server\'s origin (and any path before /api/v1/...). Default: this workbench.' },
        store_id: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', default: 'demo-store' },
        generate: { type: 'integer', minimum: 0, maximum: 20, default: 0, description: 'Generated valid and invalid requests per operation besides the replay.' },
        seed: { type: 'integer', minimum: 0, maximum: 2147483647, description: 'The generated requests\' seed (the same seed sends the same requests).' },
        only: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z0-9]{1,64}$' }, maxItems: 20, description: 'Only these operation ids.' },
        max_findings: { type: 'integer', minimum: 1, maximum: 20, default: 5 },
      },
      ['base_url', 'store_id', 'generate', 'seed', 'only', 'max_findings'],
    ),
    outputSchema: objectSchema(
      {
        verdict: { enum: ['certified', 'not-certified'] },
        target: { type: 'string' },
        store_id: { type: 'string' },
        rules: { type: 'object', required: ['total', 'passed', 'failed', 'warned'] },
        exchanges: { type: 'object', required: ['exchanges', 'passed', 'failed'] },
        failed_operations: { type: 'array', items: { type: 'string' } },
        warnings: { type: 'array', items: objectSchema({ rule: { type: 'string' }, summary: { type: 'string' }, source: { type: 'string' } }), description: 'Rules that warned: advice, not failures.' },
        findings: { type: 'array', items: FINDING },
        more_findings: { type: 'integer' },
        reproduce: { type: 'string', description: 'The command that runs the same certification.' },
        duration_ms: { type: 'integer' },
      },
      ['more_findings'],
    ),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async run(input: CertifyInput) {
      return sandbox.certifications.run(() => certifyOnce(sandbox, input));
    },
  };
}

async function certifyOnce(sandbox: SandboxLink, input: CertifyInput): Promise<Record<string, unknown>> {
  const own = input.base_url === undefined;
  if (!own) {
    const url = new URL(input.base_url!);
    if (url.username || url.password) throw new ToolError('base_url must not carry credentials: the store API key goes in STOREFRONT_CERTIFY_API_KEY, in the MCP server\'s environment');
    // The key in the environment is the user's: sent only where the user said (an agent may be told
    // anything by what it reads).
    if (!mayReceiveKey(url)) {
      throw new ToolError(`certifying ${url.origin} would send STOREFRONT_CERTIFY_API_KEY there: list that origin in STOREFRONT_CERTIFY_ORIGINS (comma-separated) in the MCP server's environment; servers on this machine (localhost, 127.0.0.1, [::1]) need nothing`);
    }
  }
  const baseUrl = (input.base_url ?? sandbox.link.origin()).replace(/\/+$/, '');
  const storeId = input.store_id ?? 'demo-store';
  let apiKey: string;
  if (own) apiKey = await sandbox.apiKey(storeId);
  else {
    // Its own variable: STOREFRONT_API_KEY is the key of the workbench the sandbox tools drive.
    const fromEnv = process.env.STOREFRONT_CERTIFY_API_KEY;
    if (!fromEnv) throw new ToolError(`certifying ${baseUrl} needs its store API key: set STOREFRONT_CERTIFY_API_KEY in the MCP server's environment (never in a tool's input)`);
    apiKey = fromEnv;
  }
  const seed = input.generate ? (input.seed ?? 1) : undefined;
  const outcome = await certify({ baseUrl, apiKey, storeId, generate: input.generate ?? 0, seed, only: input.only, concurrency: 4 });
  const cert = outcome.certificate;
  const failedOps = cert.operations.filter((op) => op.verdict === 'fail').map((op) => op.operationId);
  const failing = cert.exchanges.filter((e) => e.findings.some((f) => f.severity === 'error') || e.error);
  const max = input.max_findings ?? 5;
  const { storefront } = await contractModelOf();
  const prefix = new URL(baseUrl).pathname.replace(/\/+$/, '');
  // Placeholders the one curl builder turns into $STOREFRONT_API_KEY and $TOKEN.
  const target = { apiBase: '', apiBasePath: '', apiKey: 'STOREFRONT-API-KEY-PLACEHOLDER', token: 'TOKEN-PLACEHOLDER' };
  const findings = failing.slice(0, max).map((e) => {
    const first = e.findings.find((f) => f.severity === 'error') ?? e.findings[0];
    const url = `${new URL(baseUrl).origin}${prefix}${basePath('storefront', storeId)}${e.path}`;
    return {
      operation_id: e.operationId,
      status: e.status ?? null,
      rule: first?.rule ?? 'transport',
      severity: first?.severity ?? 'error',
      message: (first?.message ?? e.error ?? '').slice(0, 400),
      curl: e.generated?.curl ?? curlLine({ method: e.method.toUpperCase(), url, headers: credentialHeaders(storefront, e.operationId, target) }, target),
    };
  });
  const flags = [`--base-url ${baseUrl}`, `--store-id ${storeId}`, ...(input.generate ? [`--generate ${input.generate}`, `--seed ${seed}`] : []), ...(input.only?.length ? [`--only ${input.only.join(',')}`] : [])];
  const result = {
    verdict: cert.verdict,
    target: cert.target.url,
    store_id: storeId,
    rules: { total: cert.summary.rules.total, passed: cert.summary.rules.passed, failed: cert.summary.rules.failed, warned: cert.summary.rules.warned, skipped: cert.summary.rules.skipped },
    exchanges: cert.exchangeSummary,
    failed_operations: failedOps.slice(0, 50),
    // Advice (designed parts, or what the contract leaves to the server): named, never failing the verdict.
    warnings: cert.rules.filter((r) => r.status === 'warned').slice(0, 10).map((r) => ({ rule: r.id, summary: r.summary.slice(0, 200), source: r.source.kind === 'stated' ? 'stated by the platform' : 'designed here' })),
    findings,
    more_findings: Math.max(0, failing.length - max),
    reproduce: `STOREFRONT_API_KEY=... npx storefront-contract certify ${flags.join(' ')}`,
    duration_ms: Math.round(cert.durationMs),
  };
  // Within the budget by whole findings (a curl cut short would not run): the last ones go first.
  while (byteLength(result) > CERTIFY_RESULT_BYTES && result.findings.length > 0) {
    result.findings.pop();
    result.more_findings++;
  }
  return result;
}

/** The credential headers an operation's first security alternative asks for, read from the contract model. */
function credentialHeaders(doc: ContractDocument, operationId: string, target: { apiKey: string; token: string }): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of Object.keys(doc.operation(operationId)?.security[0] ?? {})) {
    const scheme = doc.securitySchemes[name];
    if (scheme?.type === 'apiKey' && scheme.in === 'header') headers[String(scheme.name).toLowerCase()] = target.apiKey;
    else if (scheme?.type === 'http') headers.authorization = `Bearer ${target.token}`;
  }
  return headers;
}

