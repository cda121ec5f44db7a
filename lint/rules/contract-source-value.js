// `x-contract-source` says whether an element is stated by the seed or designed here; only the
// two values exist (spec/extensions.md). Checked on every node kind that may carry it.
const ALLOWED = new Set(['seed', 'inferred']);

function check(node, ctx) {
  if (node && typeof node === 'object' && 'x-contract-source' in node && !ALLOWED.has(node['x-contract-source'])) {
    ctx.report({
      message: `x-contract-source must be "seed" or "inferred", got ${JSON.stringify(node['x-contract-source'])}.`,
      location: ctx.location.child('x-contract-source'),
    });
  }
}

const visit = { enter: check };

export default function ContractSourceValue() {
  return {
    Root: visit, Info: visit, Server: visit, Tag: visit, PathItem: visit, Operation: visit, Parameter: visit,
    RequestBody: visit, Response: visit, MediaType: visit, Schema: visit, Header: visit, Example: visit,
    SecurityScheme: visit,
  };
}
