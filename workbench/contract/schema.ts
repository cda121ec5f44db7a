// What the tools ask of a dereferenced JSON Schema node, in one place: allOf members folded into one
// schema (request generation, the sandbox's record checks read the merged form).

export type JsonSchema = Record<string, unknown>;

/** allOf members folded into one schema (properties and required merged; the rest: last wins). */
export function mergeAllOf(schema: JsonSchema): JsonSchema {
  const parts = schema.allOf as JsonSchema[] | undefined;
  if (!Array.isArray(parts) || parts.length === 0) return schema;
  const { allOf: _drop, ...own } = schema;
  let merged: JsonSchema = {};
  for (const part of [...parts.map(mergeAllOf), own]) {
    merged = {
      ...merged,
      ...part,
      properties: { ...(merged.properties as object | undefined), ...(part.properties as object | undefined) },
      required: [...new Set([...((merged.required as string[]) ?? []), ...((part.required as string[]) ?? [])])],
    };
  }
  return merged;
}
