// Import rules of this repository, checked by test/architecture/imports.test.ts (dependency-cruiser).
// The flow is spec -> scripts (build time) -> generated -> src (the library) -> workbench -> conformance
// -> cli; bench, test and examples sit on top. Nothing imports upward, and nothing that runs from the
// installed packages imports scripts/. Two packages ship: the library (src/ + generated/, published as
// `storefront-contract`) and the tools (workbench/, conformance/, cli/, as `storefront-contract-tools`);
// the tools reach the library only by its public name, as they will once installed.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'Import cycles make load order fragile and layers meaningless.', from: {}, to: { circular: true } },
    {
      name: 'no-runtime-import-of-scripts',
      severity: 'error',
      comment: 'scripts/ is build time only and is not shipped; run-time code must not import it.',
      from: { path: '^(src|workbench|conformance|generated|cli|examples)/' },
      to: { path: '^scripts/' },
    },
    {
      name: 'library-imports-no-tool',
      severity: 'error',
      comment: 'src/ is the published library: it must not depend on the workbench, certification or the CLI.',
      from: { path: '^src/' },
      to: { path: '^(workbench|conformance|cli|bench|test|examples|scripts)/' },
    },
    {
      name: 'library-core-loads-no-framework',
      severity: 'error',
      comment:
        'Framework code and types load only from their subpath: a server framework from its adapter (src/webhooks/adapters/<name>.ts), React and TanStack Query from storefront-contract/react-query (src/react-query/).',
      from: { path: '^src/', pathNot: '^src/(webhooks/adapters|react-query)/' },
      to: { path: 'node_modules/(fastify|express|@fastify|react|react-dom|@tanstack|openapi-react-query)/' },
    },
    {
      name: 'library-loads-no-engine',
      severity: 'error',
      comment: 'The library never loads Prism, a SQLite engine or an HTTP client library: those belong to the workbench and certification.',
      from: { path: '^src/' },
      to: { path: 'node_modules/(@stoplight|better-sqlite3|libsql|@libsql|node-sqlite3-wasm|sql\\.js|undici|yaml)/' },
    },
    {
      name: 'contract-is-a-leaf',
      severity: 'error',
      comment: 'src/contract is what every part shares; it imports only generated/ and node built-ins.',
      from: { path: '^src/contract/' },
      to: { path: '^(src/(?!contract/)|workbench|conformance|cli)' },
    },
    {
      name: 'workbench-below-certification',
      severity: 'error',
      comment: 'The workbench is certified by conformance/, so it must not depend on it.',
      from: { path: '^workbench/' },
      to: { path: '^(conformance|cli|bench|test|examples)/' },
    },
    {
      name: 'node-http-only-in-adapters',
      severity: 'error',
      comment:
        "issue 39: the workbench is one fetch-standard engine, handle(Request) -> Response; node:http lives only in its transports (workbench/adapters/: the node:http server, the raw-socket refusals). `webhooks listen` (workbench/simulator/listen.ts) is another command's own receiving server, not a transport of the engine.",
      from: { path: '^workbench/', pathNot: '^workbench/(adapters/|simulator/listen\\.ts$)' },
      to: { dependencyTypes: ['core'], path: '^(node:)?(http|https|http2)$' },
    },
    {
      name: 'request-path-reads-no-files',
      severity: 'error',
      comment: 'issue 39: the pipeline and what it runs per request (workbench/engine, http, mock) import no file system: /docs reads through its port (SiteFiles), implemented in workbench/adapters/node-files.ts.',
      from: { path: '^workbench/(engine|http|mock)/' },
      to: { dependencyTypes: ['core'], path: '^(node:)?fs(/promises)?$' },
    },
    {
      name: 'rules-import-no-engine',
      severity: 'error',
      comment:
        'A certification rule judges an observation whose type lives with the rules (conformance/rules/observations/); it never reads the REST or webhook engines, which import the types from the rules instead.',
      from: { path: '^conformance/rules/' },
      to: { path: '^conformance/(rest|webhooks)/' },
    },
    {
      name: 'certification-below-cli',
      severity: 'error',
      from: { path: '^conformance/' },
      to: { path: '^(cli|bench|test|examples)/' },
    },
    {
      name: 'tools-import-the-library-by-name',
      severity: 'error',
      comment: "The tools package installs the library as a dependency: import it as 'storefront-contract/...', never by a relative path into src/ or generated/ (which the tools package does not ship).",
      from: { path: '^(workbench|conformance|cli)/' },
      to: { path: '^(src|generated)/', dependencyTypes: ['local'] },
    },
    {
      name: 'generated-is-self-contained',
      severity: 'error',
      comment: 'generated/ is written from the spec alone.',
      from: { path: '^generated/' },
      to: { path: '^(src|workbench|conformance|cli|scripts)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|docs/site|bench/tmp)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['sfc-source', 'import', 'types', 'node', 'default'], extensions: ['.ts', '.js', '.d.ts', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
