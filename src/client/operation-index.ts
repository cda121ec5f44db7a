// Finds the operation of a request from its method and openapi-fetch's schemaPath, in the
// generated route table (generated/operations/routes.ts). Only the validation, loaded when it is
// on, looks operations up; credentials come from the smaller security table.
export type FindOperation = (method: string, schemaPath: string) => string | undefined;

export function routeFinder(routes: Readonly<Record<string, string>>): FindOperation {
  return (method, schemaPath) => {
    const key = `${method.toUpperCase()} ${schemaPath}`;
    return Object.hasOwn(routes, key) ? routes[key] : undefined;
  };
}
