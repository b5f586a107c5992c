const encoder = new TextEncoder()

/**
 * The UTF-8 length of `text`: what it costs in memory budgets, in Redis, and on the wire. The
 * one place the module measures bytes, so every limit counts alike.
 *
 * @example
 * ```ts
 * utf8Bytes('é') // 2
 * ```
 */
export function utf8Bytes(text: string): number {
  return encoder.encode(text).byteLength
}

/**
 * The UTF-8 length of `value` as JSON (what a store keeps of it); `0` for what JSON cannot say
 * (`undefined`, a function).
 *
 * @example
 * ```ts
 * jsonBytes({ a: 'é' }) // 10
 * ```
 */
export function jsonBytes(value: unknown): number {
  return utf8Bytes(JSON.stringify(value) ?? '')
}
