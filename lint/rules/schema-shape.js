// Collects the properties and required names a schema guarantees, following $ref and allOf.
// A nested $ref is relative to the file it is written in, so the source file travels with the walk.
// Shared by rules that check what a response body must contain.
export function collectObjectShape(schema, resolve, seen = new Set(), from = undefined) {
  const shape = { properties: {}, required: new Set() };
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return shape;
  seen.add(schema);
  if (schema.$ref) {
    const resolved = resolve(schema, from);
    return collectObjectShape(resolved.node, resolve, seen, resolved.location?.source.absoluteRef ?? from);
  }
  for (const [name, sub] of Object.entries(schema.properties ?? {})) {
    shape.properties[name] = sub.$ref ? resolve(sub, from).node : sub;
  }
  for (const name of schema.required ?? []) shape.required.add(name);
  for (const part of schema.allOf ?? []) {
    const inner = collectObjectShape(part, resolve, seen, from);
    Object.assign(shape.properties, inner.properties);
    for (const name of inner.required) shape.required.add(name);
  }
  return shape;
}
