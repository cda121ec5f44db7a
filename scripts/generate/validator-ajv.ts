// The one Ajv configuration behind every precompiled validator, tuned for small modules that load
// fast and validate fast, while keeping what src/validators/format-errors.ts reads (instancePath,
// keyword, params) in the first error.
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { fastFormats } from './validator-formats.js';

// Keywords whose run-time support the options below switch off. Ajv2020 forces that support on for
// every function (an `evaluated` record per call, a `dynamicAnchors` object per call) although
// these specs never use it; createAjv refuses a document that starts to.
const NEEDS_TRACKING = new Set(['unevaluatedProperties', 'unevaluatedItems', '$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor']);

// Without the `u` flag a pattern means the same unless it can meet a character outside the BMP as
// one unit (`.`, `\p{..}`, `\u{..}`, a literal astral character), so those keep the flag.
const NEEDS_UNICODE = /\\[pP]\{|\\u\{|[^\x00-\uffff]|(?:^|[^\\])(?:\\\\)*\.(?![^[]*\])/u;

function scan(node: unknown, found: { tracking: string[]; unicodePatterns: string[] }, path: string): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach((item, i) => scan(item, found, `${path}/${i}`));
  for (const [key, value] of Object.entries(node)) {
    if (NEEDS_TRACKING.has(key)) found.tracking.push(`${path}/${key}`);
    if (key === 'pattern' && typeof value === 'string' && NEEDS_UNICODE.test(value)) found.unicodePatterns.push(value);
    scan(value, found, `${path}/${key}`);
  }
}

// The workbench's Ajv (workbench/mock/ajv.ts) sets the same, so both judge `multipleOf` alike.
const MULTIPLE_OF_PRECISION = 12;

export function createAjv(doc: unknown) {
  const found = { tracking: [] as string[], unicodePatterns: [] as string[] };
  scan(doc, found, '#');
  if (found.tracking.length) {
    throw new Error(`the validators are generated without unevaluated/dynamic-ref tracking, but the spec uses it at ${found.tracking.join(', ')}: enable it in scripts/generate/validator-ajv.ts`);
  }
  const ajv = new Ajv2020({
    // OpenAPI/AsyncAPI schemas carry annotations Ajv does not know (x-contract-source, discriminator).
    strict: false,
    // `strict: false` also turns strictNumbers off, and Infinity and NaN then pass `type: number`
    // (JSON.stringify writes them as null). On explicitly.
    strictNumbers: true,
    // `multipleOf: 1` (Pagination's whole-number counts on the platform's `number` type) is by default
    // `x/1 !== parseInt(x/1)`, which refuses every whole number from 1e21 up (parseInt(1e21) is 1, Ajv
    // issue #2561). With a precision the check is `|round(x/d) - x/d| > 1e-12` (spec/README.md).
    multipleOfPrecision: MULTIPLE_OF_PRECISION,
    // The first error is enough to say where and what; stopping there keeps valid data fast.
    allErrors: false,
    allowUnionTypes: true,
    // Shared functions per $ref instead of inlined copies: smaller modules, which matters more for
    // load time than the call per $ref costs in validation.
    inlineRefs: false,
    // src/validators/format-errors.ts words every error from keyword and params.
    messages: false,
    unicodeRegExp: found.unicodePatterns.length > 0,
    validateSchema: false,
    logger: false,
    code: { esm: true, source: true, optimize: true },
  });
  Object.assign(ajv.opts, { unevaluated: false, dynamicRef: false });
  // CommonJS module: under NodeNext the callable is its `default` property. The formats the spec
  // uses are replaced by fastFormats (inline regular expressions); any other stays ajv-formats'.
  ajvFormats.default(ajv);
  for (const [name, format] of Object.entries(fastFormats)) ajv.addFormat(name, format);
  return ajv;
}
