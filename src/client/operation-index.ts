// Finds the operation of a request from its method and openapi-fetch's schemaPath, in the
// generated route table (generated/operations/routes.ts).
import type { Route } from '../../generated/operations/routes.js';

export type OperationMeta = Route;

export type FindOperation = (method: string, schemaPath: string) => OperationMeta | undefined;

export function routeFinder(routes: Readonly<Record<string, Route>>): FindOperation {
  return (method, schemaPath) => {
    const key = `${method.toUpperCase()} ${schemaPath}`;
    return Object.hasOwn(routes, key) ? routes[key] : undefined;
  };
}
