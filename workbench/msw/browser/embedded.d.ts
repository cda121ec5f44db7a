// The module scripts/build-msw-browser.ts generates at build time for the sandbox's browser build: the
// storefront document as the ref parser left it (see ref-parser.ts for the format) and the tools' name
// and version.
declare module 'sfc:embedded-contract' {
  export const snapshot: {
    /** The document's path inside the assets root: `spec/openapi/storefront.yaml`. */
    document: string;
    /** Objects and arrays reached more than once, each written once: `{ "$sfc-shared": index }` names one. */
    shared: unknown[];
    root: unknown;
    /** Every file the document reaches (itself included), by its path inside the assets root: `spec/openapi/components/examples/ListProductsOk.yaml`. */
    parts: Record<string, unknown>;
  };
  export const toolsPackage: { name: string; version: string };
}
