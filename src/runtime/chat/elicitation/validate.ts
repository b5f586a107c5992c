import type { McpFormField } from './fields'
import { FORMAT_MESSAGES, matchesFormat } from './formats'
import type { McpElicitationContent, McpElicitationValue } from './types'
// Browser-safe: a pure function without imports.
import { isRecord } from '../../server/common/is-record'
import { setOwn } from '../../server/common/own'

/**
 * Validation of a form answer against its fields, with the spec's rules: JSON types, `enum` /
 * `oneOf` membership, `minimum`/`maximum`, `minLength`/`maxLength`, `minItems`/`maxItems`,
 * `required`, and the four formats. Used by the browser (messages next to the fields) and by the
 * host's respond endpoint (400 with the same messages): one set of rules, one wording.
 */

/** The verdict: the clean content, or one message per field name. */
export type McpValidationResult =
  | { ok: true; content: McpElicitationContent }
  | { ok: false; errors: Record<string, string> }

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`
}

/** Code points, as JSON Schema counts string length (an emoji is one character). */
function lengthOf(value: string): number {
  return [...value].length
}

function checkText(field: Extract<McpFormField, { kind: 'text' }>, value: string): string | undefined {
  const length = lengthOf(value)
  if (field.minLength !== undefined && length < field.minLength) return `Enter at least ${plural(field.minLength, 'character')}.`
  if (field.maxLength !== undefined && length > field.maxLength) return `Enter at most ${plural(field.maxLength, 'character')}.`
  if (field.format && !matchesFormat(field.format, value)) return FORMAT_MESSAGES[field.format]
  return undefined
}

function checkNumber(field: Extract<McpFormField, { kind: 'number' }>, value: number): string | undefined {
  if (field.integer && !Number.isInteger(value)) return 'Enter a whole number.'
  if (field.minimum !== undefined && value < field.minimum) return `Enter a number of at least ${field.minimum}.`
  if (field.maximum !== undefined && value > field.maximum) return `Enter a number of at most ${field.maximum}.`
  return undefined
}

function checkMulti(field: Extract<McpFormField, { kind: 'multiselect' }>, value: string[]): string | undefined {
  if (value.some(item => !field.options.some(option => option.value === item))) return 'Choose only from the listed options.'
  if (new Set(value).size !== value.length) return 'Choose each option at most once.'
  if (field.minItems !== undefined && value.length < field.minItems) return `Choose at least ${plural(field.minItems, 'option')}.`
  if (field.maxItems !== undefined && value.length > field.maxItems) return `Choose at most ${plural(field.maxItems, 'option')}.`
  return undefined
}

/** The message for one present value, or undefined when it is valid. */
export function checkValue(field: McpFormField, value: unknown): string | undefined {
  switch (field.kind) {
    case 'text':
      return typeof value === 'string' ? checkText(field, value) : 'Enter text.'
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? checkNumber(field, value) : 'Enter a number.'
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'Expected true or false.'
    case 'select':
      return typeof value === 'string' && field.options.some(option => option.value === value) ? undefined : 'Choose one of the listed options.'
    case 'multiselect':
      return Array.isArray(value) && value.every(item => typeof item === 'string') ? checkMulti(field, value) : 'Choose from the listed options.'
  }
}

/**
 * Checks `content` (an accepted answer) against the form's fields.
 *
 * @example
 * ```ts
 * const read = readRequestedSchema(request.requestedSchema)
 * if (read.ok) validateContent(read.fields, { email: 'nope' })
 * // { ok: false, errors: { email: 'Enter a valid email address, like name@example.com.' } }
 * ```
 */
export function validateContent(fields: readonly McpFormField[], content: unknown): McpValidationResult {
  if (content !== undefined && !isRecord(content)) return { ok: false, errors: { '': 'The answer content must be an object.' } }
  const given = content ?? {}
  const errors: Record<string, string> = {}
  const clean: McpElicitationContent = {}
  const names = new Set(fields.map(field => field.name))
  for (const key of Object.keys(given)) {
    if (!names.has(key)) setOwn(errors, key, 'This field is not part of the form.')
  }
  for (const field of fields) {
    const value = Object.hasOwn(given, field.name) ? given[field.name] : undefined
    if (value === undefined) {
      if (field.required) setOwn(errors, field.name, field.kind === 'select' || field.kind === 'multiselect' ? 'Choose an option.' : 'This field is required.')
      continue
    }
    const problem = checkValue(field, value)
    if (problem !== undefined) setOwn(errors, field.name, problem)
    else setOwn(clean, field.name, toValue(value))
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, content: clean }
}

/** Narrows an already checked value (checkValue passed) to the content type. */
function toValue(value: unknown): McpElicitationValue {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : String(value)
}
