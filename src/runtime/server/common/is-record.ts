/**
 * True for a JSON object (not `null`, not an array): the check every parser of client-sent JSON
 * here starts with before reading a property.
 *
 * @example
 * ```ts
 * if (isRecord(body) && typeof body.method === 'string') route(body.method)
 * ```
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
