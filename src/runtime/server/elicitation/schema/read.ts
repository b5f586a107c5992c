/**
 * Defensive readers for Zod internals.
 *
 * Zod's definitions are read as plain data rather than through its TypeScript types: the caller's
 * schemas may come from another copy or minor version of Zod (or from `zod/v3`), so every property
 * is checked at runtime instead of trusted, and nothing here can throw on an unexpected shape.
 */

/** A read-only view of an object whose properties are not known in advance. */
export type Bag = Readonly<Record<string, unknown>>

/**
 * Tells whether a value is a non-null, non-array object.
 *
 * @example
 * ```ts
 * isBag({ a: 1 }) // true
 * isBag([1]) // false
 * ```
 */
export function isBag(value: unknown): value is Bag {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Reads a string property, or `undefined` when it is missing or not a string.
 *
 * @example
 * ```ts
 * readString({ type: 'string' }, 'type') // 'string'
 * ```
 */
export function readString(bag: Bag, key: string): string | undefined {
  const value = bag[key]
  return typeof value === 'string' ? value : undefined
}

/**
 * Reads a finite-or-infinite number property (not NaN), or `undefined`.
 *
 * @example
 * ```ts
 * readNumber({ value: 3 }, 'value') // 3
 * ```
 */
export function readNumber(bag: Bag, key: string): number | undefined {
  const value = bag[key]
  return typeof value === 'number' && !Number.isNaN(value) ? value : undefined
}

/**
 * Reads an object property, or `undefined` when it is missing or not an object.
 *
 * @example
 * ```ts
 * readBag({ minLength: { value: 1 } }, 'minLength') // { value: 1 }
 * ```
 */
export function readBag(bag: Bag, key: string): Bag | undefined {
  const value = bag[key]
  return isBag(value) ? value : undefined
}

/**
 * Reads an array property, or an empty array when it is missing or not an array.
 *
 * @example
 * ```ts
 * readList({ checks: [1] }, 'checks') // [1]
 * ```
 */
export function readList(bag: Bag, key: string): readonly unknown[] {
  const value = bag[key]
  return Array.isArray(value) ? value : []
}
