// marked 4 (a dev dependency) ships no type declarations; this is the
// slice of its API that markdown.ts (and test/package/shipped-docs.ts: the lexer's tokens) uses.
declare module 'marked' {
  export const marked: {
    parse(source: string, options?: Record<string, unknown>): string;
    lexer(source: string): Array<{ type: string; [key: string]: unknown }>;
  };
}
