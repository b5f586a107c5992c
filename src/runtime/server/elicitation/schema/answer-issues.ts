import { isBag, readList, readString, type Bag } from './read'

/**
 * Human-readable answer problems. Each issue starts with the field in JSON quotes
 * (`"age": expected a number, received "abc"`) or reads `unexpected field 'x'`, so a person, a
 * model or {@link fieldOfIssue} can tell which field to fix.
 */

const MAX_SHOWN = 60

/**
 * Shows a received value compactly: JSON, cut to a readable length.
 *
 * @example
 * ```ts
 * showValue('abc') // '"abc"'
 * showValue(undefined) // 'nothing'
 * ```
 */
export function showValue(value: unknown): string {
  if (value === undefined) return 'nothing'
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  }
  catch {
    text = String(value)
  }
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text
}

/**
 * The label of an issue path: `"tags"` for a field, `"tags"[1]` for an item of a multi-select.
 *
 * @example
 * ```ts
 * labelPath(['tags', 1]) // '"tags"[1]'
 * ```
 */
export function labelPath(path: readonly unknown[]): string {
  const [field, ...rest] = path
  return JSON.stringify(String(field)) + rest.map(part => `[${String(part)}]`).join('')
}

/** Options Zod says it expected: v4 `values`, v3 `options`/`expected`, or a literal union's members. */
function expectedOptions(issue: Bag): unknown[] | undefined {
  const code = readString(issue, 'code')
  if (code === 'invalid_value') return [...readList(issue, 'values')]
  if (code === 'invalid_enum_value') return [...readList(issue, 'options')]
  if (code === 'invalid_literal') return [issue.expected]
  if (code !== 'invalid_union') return undefined
  // v4 nests each member's issues in `errors`, v3 in `unionErrors[].issues`.
  const branches = [...readList(issue, 'errors'), ...readList(issue, 'unionErrors').map(e => isBag(e) ? readList(e, 'issues') : [])]
  const options = branches.flatMap(branch => Array.isArray(branch) ? branch.filter(isBag).flatMap(nested => expectedOptions(nested) ?? []) : [])
  return options.length > 0 ? options : undefined
}

function withArticle(expected: string): string {
  if (expected === 'array') return 'a list'
  if (expected === 'int' || expected === 'integer') return 'an integer'
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`
}

function valueAt(content: Bag, path: readonly unknown[]): unknown {
  let value: unknown = content
  for (const part of path) {
    if (Array.isArray(value) && typeof part === 'number') value = value[part]
    else if (isBag(value) && (typeof part === 'string' || typeof part === 'number') && Object.hasOwn(value, part)) value = value[part]
    else return undefined
  }
  return value
}

/**
 * Formats one Zod issue (v3 or v4) against the content it was raised for. A custom message (from
 * `.refine()` or `{ error }`) is kept as the author wrote it.
 *
 * @example
 * ```ts
 * formatIssue({ code: 'invalid_type', expected: 'number', path: ['age'] }, { age: 'abc' })
 * // '"age": expected a number, received "abc"'
 * ```
 */
export function formatIssue(issue: Bag, content: Bag): string {
  const path = readList(issue, 'path')
  const label = path.length > 0 ? labelPath(path) : 'the answer'
  const received = valueAt(content, path)
  const options = expectedOptions(issue)
  const expected = readString(issue, 'expected')
  const what = options ? `one of ${options.map(showValue).join(', ')}`
    : readString(issue, 'code') === 'invalid_type' && expected ? withArticle(expected)
      : undefined
  if (what === undefined) {
    const message = readString(issue, 'message') ?? 'invalid value'
    return received === undefined ? `${label}: ${message}` : `${label}: ${message}, received ${showValue(received)}`
  }
  return received === undefined ? `${label}: missing, expected ${what}` : `${label}: expected ${what}, received ${showValue(received)}`
}

/**
 * The field an issue is about, or `undefined` for answer-level issues.
 *
 * @example
 * ```ts
 * fieldOfIssue('"age": expected a number, received "abc"') // 'age'
 * fieldOfIssue("unexpected field 'x'") // 'x'
 * ```
 */
export function fieldOfIssue(issue: string): string | undefined {
  const unexpected = /^unexpected field '(.*)'$/s.exec(issue)
  if (unexpected) return unexpected[1]
  const quoted = /^"(?:[^"\\]|\\.)*"/.exec(issue)
  if (!quoted) return undefined
  try {
    const field: unknown = JSON.parse(quoted[0])
    return typeof field === 'string' ? field : undefined
  }
  catch {
    return undefined
  }
}
