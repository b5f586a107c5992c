import { refuseKind } from './refusals'
import type { Bag } from './read'
import type { SelectOption } from './fields'

/**
 * Enum values the way Zod computes them (both versions): the reverse-mapping keys of a TypeScript
 * numeric enum (`{ 0: 'A', A: 0 }`) are not values.
 *
 * @example
 * ```ts
 * enumValues({ a: 'a', b: 'b' }) // ['a', 'b']
 * ```
 */
export function enumValues(entries: Bag): unknown[] {
  const numeric = new Set(Object.values(entries).filter(v => typeof v === 'number'))
  return Object.entries(entries).filter(([key]) => !numeric.has(Number(key))).map(([, v]) => v)
}

/**
 * Turns enum or literal values into select options, refusing non-string and empty option lists.
 * A title applies only to a single-valued literal (a multi-valued one has no per-value label).
 *
 * @example
 * ```ts
 * toOptions('plan', ['pro'], 'non-string-literal', 'Pro plan') // [{ value: 'pro', title: 'Pro plan' }]
 * ```
 */
export function toOptions(field: string, values: readonly unknown[], kind: 'non-string-enum' | 'non-string-literal', title?: string): SelectOption[] {
  if (values.length === 0) throw refuseKind(field, 'empty-options')
  return values.map((value) => {
    if (typeof value !== 'string') throw refuseKind(field, kind)
    return values.length === 1 && title !== undefined ? { value, title } : { value }
  })
}
