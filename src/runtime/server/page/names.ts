/**
 * The names the page's form gives its inputs. By position, never by the question's key or the
 * field's name: those come from a handler and a schema and may hold anything (`.`, quotes, a line
 * break a browser would rewrite, `__proto__`), while `q0.f1` survives every encoding the same.
 */

/**
 * The hidden field that carries the CSRF token.
 *
 * @example
 * ```ts
 * const token = new URLSearchParams(body).get(PAGE_CSRF_FIELD)
 * ```
 */
export const PAGE_CSRF_FIELD = '_csrf'

/**
 * The submit buttons' name; their values are `accept` and `decline`.
 *
 * @example
 * ```ts
 * new URLSearchParams(body).get(PAGE_ACTION_FIELD) // 'accept'
 * ```
 */
export const PAGE_ACTION_FIELD = '_action'

/**
 * The form name of field `field` of question `question` (both by index).
 *
 * @example
 * ```ts
 * pageFieldName(0, 2) // 'q0.f2'
 * ```
 */
export function pageFieldName(question: number, field: number): string {
  return `q${question}.f${field}`
}

/**
 * The element id of that field's control (hints and errors add `-hint`, `-error`).
 *
 * @example
 * ```ts
 * pageFieldId(0, 2) // 'q0-f2'
 * ```
 */
export function pageFieldId(question: number, field: number): string {
  return `q${question}-f${field}`
}
