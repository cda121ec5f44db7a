// Finds the operation of a request from its method and openapi-fetch's schemaPath, using the
// generated operation metadata (security, documented statuses).
export interface OperationMeta {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly security: readonly string[];
}

export function indexOperations(ops: Record<string, OperationMeta>): (method: string, schemaPath: string) => OperationMeta | undefined {
  const byKey = new Map<string, OperationMeta>();
  for (const op of Object.values(ops)) byKey.set(`${op.method.toUpperCase()} ${op.path}`, op);
  return (method, schemaPath) => byKey.get(`${method.toUpperCase()} ${schemaPath}`);
}
