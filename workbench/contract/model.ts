// The run-time contract model of the tools: each document (storefront.yaml, admin.yaml, webhooks.yaml)
// read and dereferenced at most once per process (through the cache of dereferenced documents keyed by
// their content, document-cache.ts), and what the mock, the sandbox, the simulator and
// certification ask of it: the operations (method, path template, operationId, parameters, responses),
// the URL -> operation match, the files of a document (named examples, component schemas), page limits
// and event families. `documentLoads()` counts the reads, so a test can prove nothing reads twice.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { webhookEvents } from 'storefront-contract';
import { cachedDereference } from './document-cache.js';
import { documents, type DocumentName } from './files.js';
import { matchApiPath, matchPath, type ApiMatch, type PathMatch } from './match.js';

export type JsonObject = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** One operation of an OpenAPI document, dereferenced. */
export interface ContractOperation {
  /** The document's name (`storefront`, `admin`, or the file's base name for another document). */
  api: string;
  /** Lower case: `get`, `post`. */
  method: string;
  /** The path template inside the API's base path: `/pos/carts/{id}`. */
  path: string;
  operationId: string;
  /** Path-level and operation-level parameters, the operation's winning on the same `in` and `name`. */
  parameters: JsonObject[];
  requestBody?: JsonObject;
  /** The operation's `security`, else the document's: alternatives (OR) of requirements (AND); [] means public. */
  security: Array<Record<string, string[]>>;
  /** Status (`200`, `4XX`, `default`) -> response object. */
  responses: Record<string, JsonObject>;
  deprecated: boolean;
  /** The largest page the operation answers: its `limit` parameter's `x-max-page-size`, else its schema's `maximum`. */
  maxPageSize?: number;
  /** The operation object as the document has it (its `x-` extensions, links, tags). */
  definition: JsonObject;
}

/** One document, read and dereferenced once. */
export interface ContractDocument {
  name: string;
  file: string;
  /** The document with every `$ref` replaced by its target (shared targets stay one object; do not mutate). */
  document: JsonObject;
  /** `components.securitySchemes` (OpenAPI) or `components.securitySchemes` (AsyncAPI), by name. */
  securitySchemes: Record<string, JsonObject>;
  /** Every operation in document order ([] for the AsyncAPI document). */
  operations: ContractOperation[];
  operation(operationId: string): ContractOperation | undefined;
  /** The operation `method` + `innerPath` (inside the API) names: the one matcher of the tools. */
  match(method: string, innerPath: string): PathMatch<ContractOperation>;
  /**
   * One file the document references, as parsed in the same read (dereferenced in place), by its path
   * relative to the document's folder: `components/examples/ListProductsOk.yaml`. Undefined when the
   * document does not reach the file. Shared with every other user: copy before changing.
   */
  part(relativePath: string): unknown;
}

/** The three documents of the contract. */
export type Contract = Record<DocumentName, ContractDocument>;

const loading = new Map<string, Promise<ContractDocument>>();
const reads = new Map<string, number>();
const nameOf = new Map<string, string>(Object.entries(documents).map(([name, file]) => [path.resolve(file), name]));

/**
 * The document in `file`, read and dereferenced on the first call of the process, the same object after.
 * A read that fails is forgotten, so a fixed file loads on the next call.
 */
export function loadDocument(file: string, name?: string): Promise<ContractDocument> {
  const key = path.resolve(file);
  let promise = loading.get(key);
  if (!promise) {
    promise = readDocument(key, name ?? nameOf.get(key) ?? path.basename(key).replace(/\.ya?ml$/, ''));
    loading.set(key, promise);
    promise.catch(() => loading.delete(key));
  }
  return promise;
}

/** A document of the contract by name (`storefront`, `admin`, `webhooks`), read once per process. */
export function contractModel(name: DocumentName): Promise<ContractDocument> {
  return loadDocument(documents[name], name);
}

/** All three documents, each read once per process. */
export async function loadContract(): Promise<Contract> {
  const [storefront, admin, webhooks] = await Promise.all([contractModel('storefront'), contractModel('admin'), contractModel('webhooks')]);
  return { storefront, admin, webhooks };
}

/** How many times this process read each document of the contract (any other file counts under its path). */
export function documentLoads(): Record<DocumentName, number> & Record<string, number> {
  const out: Record<string, number> = { storefront: 0, admin: 0, webhooks: 0 };
  for (const [file, count] of reads) out[nameOf.get(file) ?? file] = count;
  return out as Record<DocumentName, number> & Record<string, number>;
}

/** Tests only: forgets every loaded document (the counts stay), so the next call reads again. */
export function forgetLoadedDocuments(): void {
  loading.clear();
}

// The parser's own file resolver takes no file at all once a `window` global exists (a front end's
// component tests run in jsdom or happy-dom, and the in-process sandbox loads there): it would fetch every
// path over HTTP from the page's location. Files are named by file: URL and read by this resolver instead,
// the same everywhere; the contract references no URL, so the HTTP resolver stays off.
const FILE_RESOLVER = {
  order: 1,
  canRead: (file: { url: string }) => file.url.startsWith('file:'),
  read: (file: { url: string }) => readFile(fileURLToPath(file.url)),
};

/**
 * A document read and dereferenced (every `$ref` replaced by its target, shared targets one object), with
 * every file it reaches by absolute path: the one reading of the contract's files, which the sandbox's
 * browser build also embeds (scripts/build-msw-browser.ts).
 */
export async function dereferenceFile(file: string): Promise<{ document: JsonObject; files: Map<string, unknown> }> {
  // Loaded with the first parse, not at start: a start-up served by the document cache never needs it.
  const { $RefParser } = await import('@apidevtools/json-schema-ref-parser');
  const parser = new $RefParser();
  // circular: 'ignore' keeps recursive schemas as $ref instead of failing; the contract has none today.
  const document = (await parser.dereference(pathToFileURL(file).href, { resolve: { file: FILE_RESOLVER, http: false }, dereference: { circular: 'ignore' } })) as JsonObject;
  return { document, files: new Map(parser.$refs.paths().map((url) => [fileURLToPath(url), parser.$refs.get(url)])) };
}

async function readDocument(file: string, name: string): Promise<ContractDocument> {
  reads.set(file, (reads.get(file) ?? 0) + 1);
  // From the cache of dereferenced documents when every file the document reaches is unchanged.
  const { document, files } = await cachedDereference(file, dereferenceFile);
  const folder = path.dirname(file);
  const securitySchemes: Record<string, JsonObject> = document.components?.securitySchemes ?? {};
  const operations = typeof document.openapi === 'string' ? operationsOf(name, document) : [];
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  return {
    name,
    file,
    document,
    securitySchemes,
    operations,
    operation: (operationId) => byId.get(operationId),
    match: (method, innerPath) => matchPath(operations, method, innerPath),
    part: (relativePath) => files.get(path.resolve(folder, relativePath)),
  };
}

function operationsOf(api: string, doc: JsonObject): ContractOperation[] {
  const out: ContractOperation[] = [];
  for (const [template, item] of Object.entries<JsonObject>(doc.paths ?? {})) {
    if (!item || typeof item !== 'object') continue;
    for (const method of METHODS) {
      const op = item[method] as JsonObject | undefined;
      if (!op) continue;
      const byKey = new Map<string, JsonObject>();
      for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])]) byKey.set(`${p.in}:${p.name}`, p);
      const parameters = [...byKey.values()];
      out.push({
        api,
        method,
        path: template,
        operationId: op.operationId ?? `${method} ${template}`,
        parameters,
        requestBody: op.requestBody,
        security: op.security ?? doc.security ?? [],
        responses: op.responses ?? {},
        deprecated: op.deprecated === true,
        maxPageSize: pageLimitOf(parameters),
        definition: op,
      });
    }
  }
  return out;
}

function pageLimitOf(parameters: JsonObject[]): number | undefined {
  const limit = parameters.find((p) => p.in === 'query' && p.name === 'limit');
  if (!limit) return undefined;
  const max = limit['x-max-page-size'] ?? limit.schema?.maximum;
  return typeof max === 'number' ? max : undefined;
}

/**
 * The largest page any list of the document answers (the `limit` parameters' `x-max-page-size`; register
 * SF-031 for the storefront, AD-080 for the admin lists). Undefined when the document has no paged list.
 */
export function maxPageSize(doc: ContractDocument): number | undefined {
  const limits = doc.operations.map((op) => op.maxPageSize).filter((n): n is number => n !== undefined);
  return limits.length ? Math.max(...limits) : undefined;
}

/** Which operation a whole pathname names, over the loaded documents (`/api/v1/s1/storefront/catalog/products`). */
export function matchOperation(contract: Partial<Record<string, ContractDocument>>, method: string, pathname: string): ApiMatch<ContractOperation> {
  return matchApiPath((api) => contract[api]?.operations, method, pathname);
}

/** Event families (`orders`, `customers`, `catalog`, ...) -> their event names, from the library's webhook catalog. */
export function eventFamilies(): Map<string, string[]> {
  const families = new Map<string, string[]>();
  for (const entry of webhookEvents) families.set(entry.family, [...(families.get(entry.family) ?? []), entry.event]);
  return families;
}

export { mergeAllOf } from './schema.js';
export { matchApiPath, matchPath, templateSegments, type ApiMatch, type PathMatch, type PathTemplate, type Segment } from './match.js';
