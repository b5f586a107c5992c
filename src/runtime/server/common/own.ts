/**
 * `record[key]` only when `key` is the record's own property. Keys come from users and clients,
 * and a plain read of `constructor` or `toString` finds `Object.prototype`'s.
 *
 * @example
 * ```ts
 * ownValue({}, 'constructor') // undefined, not Object
 * ```
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined
}

/**
 * Sets `record[key]` as an own, enumerable property: a plain assignment to `__proto__` would
 * replace the record's prototype instead of storing the value (and JSON would drop it).
 *
 * @example
 * ```ts
 * setOwn(steps, '__proto__', { v: 1 })
 * JSON.stringify(steps) // '{"__proto__":{"v":1}}'
 * ```
 */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true })
}
