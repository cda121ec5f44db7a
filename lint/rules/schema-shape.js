// Collects the properties and required names a schema guarantees, following $ref and allOf.
// Shared by rules that check what a response body must contain.
export function collectObjectShape(schema, resolve, seen = new Set()) {
  const shape = { properties: {}, required: new Set() };
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return shape;
  seen.add(schema);
  if (schema.$ref) return collectObjectShape(resolve(schema).node, resolve, seen);
  for (const [name, sub] of Object.entries(schema.properties ?? {})) {
    shape.properties[name] = sub.$ref ? resolve(sub).node : sub;
  }
  for (const name of schema.required ?? []) shape.required.add(name);
  for (const part of schema.allOf ?? []) {
    const inner = collectObjectShape(part, resolve, seen);
    Object.assign(shape.properties, inner.properties);
    for (const name of inner.required) shape.required.add(name);
  }
  return shape;
}
