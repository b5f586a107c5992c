import type { McpFormField } from './fields'
import { validateContent } from './validate'
import type { McpValidationResult } from './validate'
import type { McpElicitationContent } from './types'
// Browser-safe: a pure function without imports. A field may be named `__proto__`.
import { setOwn } from '../../server/common/own'

/**
 * The bridge between HTML inputs and an answer's `content`: what each field starts with (defaults
 * pre-filled), which input type shows it, and how the typed strings become JSON values.
 */

/** What an input holds: text inputs and selects a string, a checkbox a boolean, a multi-select a list. */
export type McpFormValue = string | boolean | string[]

/** The state of a whole form, by field name. */
export type McpFormValues = Record<string, McpFormValue>

/**
 * Options of the bridge. `timeZone` says in which zone a `datetime-local` input's value is read
 * and written: `'local'` (the default) is the browser's own zone, right where the conversion runs
 * in the browser; `'utc'` is for a conversion run on a server (the app's question page, without
 * script), which cannot know the person's zone and so says "UTC" next to the field.
 */
export interface McpFormOptions { timeZone?: 'local' | 'utc' }

/** The HTML `<input type>` for a text field. */
export type McpTextInputType = 'text' | 'email' | 'url' | 'date' | 'datetime-local'

/**
 * The input type that shows a text field: a native picker for dates, keyboards for email and URL.
 *
 * @example
 * ```ts
 * inputTypeOf({ name: 'at', label: 'At', required: true, kind: 'text', format: 'date-time' }) // 'datetime-local'
 * ```
 */
export function inputTypeOf(field: Extract<McpFormField, { kind: 'text' }>): McpTextInputType {
  switch (field.format) {
    case 'email': return 'email'
    case 'uri': return 'url'
    case 'date': return 'date'
    case 'date-time': return 'datetime-local'
    default: return 'text'
  }
}

function pad(value: number): string {
  return String(value).padStart(2, '0')
}

/**
 * An RFC 3339 date-time → the `YYYY-MM-DDTHH:mm` a `datetime-local` input shows (local time, or
 * UTC with `timeZone: 'utc'`).
 *
 * @example
 * ```ts
 * toLocalDateTime('2026-03-01T09:30:00Z', { timeZone: 'utc' }) // '2026-03-01T09:30'
 * ```
 */
export function toLocalDateTime(value: string, options: McpFormOptions = {}): string {
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return ''
  if (options.timeZone === 'utc') return date.toISOString().slice(0, 16)
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}

/**
 * A `datetime-local` value (local time, or UTC with `timeZone: 'utc'`) → an RFC 3339 date-time in
 * UTC, or undefined.
 *
 * @example
 * ```ts
 * fromLocalDateTime('2026-03-01T09:30', { timeZone: 'utc' }) // '2026-03-01T09:30:00.000Z'
 * ```
 */
export function fromLocalDateTime(value: string, options: McpFormOptions = {}): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/.test(value)) return undefined
  // A value without a zone is local time to `Date`; `Z` makes it UTC.
  const date = new Date(options.timeZone === 'utc' ? `${value}Z` : value)
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString()
}

/**
 * The starting state of a form: each field's default, or empty.
 *
 * @example
 * ```ts
 * initialValues([{ name: 'notify', label: 'Notify', required: false, kind: 'boolean', default: true }]) // { notify: true }
 * ```
 */
export function initialValues(fields: readonly McpFormField[], options: McpFormOptions = {}): McpFormValues {
  const values: McpFormValues = {}
  for (const field of fields) setOwn(values, field.name, initialValue(field, options))
  return values
}

function initialValue(field: McpFormField, options: McpFormOptions): McpFormValue {
  switch (field.kind) {
    case 'text':
      return field.default === undefined ? '' : field.format === 'date-time' ? toLocalDateTime(field.default, options) : field.default
    case 'number':
      return field.default === undefined ? '' : String(field.default)
    case 'boolean':
      return field.default ?? false
    case 'select':
      return field.default ?? ''
    case 'multiselect':
      return field.default ? [...field.default] : []
  }
}

/** One field's input → its JSON value; `undefined` = left empty; `{ error }` = cannot be read. */
function convert(field: McpFormField, input: McpFormValue | undefined, options: McpFormOptions): McpElicitationContent[string] | undefined | { error: string } {
  if (field.kind === 'boolean') return input === true
  if (field.kind === 'multiselect') {
    const list = Array.isArray(input) ? input : []
    return list.length === 0 && !field.required ? undefined : list
  }
  const text = typeof input === 'string' ? input : ''
  if (text.trim() === '') return undefined
  if (field.kind === 'number') {
    const number = Number(text.trim())
    return Number.isFinite(number) ? number : { error: 'Enter a number.' }
  }
  if (field.kind === 'text' && field.format === 'date-time') return fromLocalDateTime(text, options) ?? { error: 'Enter a valid date and time.' }
  return text
}

/**
 * Reads a form's state into an answer's `content` and validates it: the messages to show, or the
 * content to send with `accept`.
 *
 * @example
 * ```ts
 * collectAnswer(fields, { name: 'Ada', age: '36', newsletter: true })
 * // { ok: true, content: { name: 'Ada', age: 36, newsletter: true } }
 * ```
 */
export function collectAnswer(fields: readonly McpFormField[], values: McpFormValues, options: McpFormOptions = {}): McpValidationResult {
  const content: McpElicitationContent = {}
  const errors: Record<string, string> = {}
  for (const field of fields) {
    const value = convert(field, Object.hasOwn(values, field.name) ? values[field.name] : undefined, options)
    if (value === undefined) continue
    if (typeof value === 'object' && !Array.isArray(value)) setOwn(errors, field.name, value.error)
    else setOwn(content, field.name, value)
  }
  const checked = validateContent(fields.filter(field => !Object.hasOwn(errors, field.name)), content)
  if (checked.ok && Object.keys(errors).length === 0) return checked
  return { ok: false, errors: { ...(checked.ok ? {} : checked.errors), ...errors } }
}
