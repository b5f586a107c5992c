/**
 * Numbers objects by identity: the same object always gets the same number, and the numbering
 * holds nothing alive. Cache keys built from these numbers tell equal-looking objects apart.
 *
 * @example
 * ```ts
 * const idOf = createIdentityNumbers()
 * idOf(fn) === idOf(fn) // true
 * idOf(() => 1) === idOf(() => 1) // false
 * ```
 */
export function createIdentityNumbers(): (object: object) => number {
  const ids = new WeakMap<object, number>()
  let next = 0
  return (object) => {
    let id = ids.get(object)
    if (id === undefined) ids.set(object, id = next++)
    return id
  }
}
