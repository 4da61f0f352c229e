/**
 * Where a request body names its operation: `data.action`, or `data.type` on the settings endpoint; the token
 * variants without a `data` wrapper name it at the top level (`action`). The router picks actions by this rule; the
 * API faults and the request journal, which look at bodies before or beside the router, read it here too.
 */
export type OperationField = 'action' | 'type';

/** The value (of any type) naming the operation, as a resource whose operations are told apart by `field` reads it. */
export function operationValue(body: Record<string, unknown>, field: OperationField): unknown {
  const data = body.data;
  if (isObject(data)) return data[field];
  return data === undefined ? body.action : undefined;
}

/** The operation a body names, for readers that do not know the resource: `data.action`, else `data.type`. */
export function operationOf(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const value = operationValue(body, 'action') ?? operationValue(body, 'type');
  return typeof value === 'string' ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
