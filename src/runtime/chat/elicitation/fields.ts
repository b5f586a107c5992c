/**
 * Reads an elicitation's `requestedSchema` (a flat object of the spec's primitive schemas) into
 * field descriptors a form can render and a validator can check. The schema comes from an MCP
 * server, so nothing in it is trusted: anything outside the spec is refused with a message.
 */

/**
 * A field label for a property with no `title`: its key as words (`plan_tier`, `planTier` →
 * "Plan tier"), instead of the raw key.
 *
 * @example
 * ```ts
 * readableLabel('first_name') // 'First name'
 * ```
 */
export function readableLabel(key: string): string {
  // An acronym (`URL`, `SKU`) already reads as meant.
  if (/^[A-Z0-9]+$/.test(key)) return key
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\-.]+/g, ' ').trim().toLowerCase()
  return words ? words[0]!.toUpperCase() + words.slice(1) : key
}

/** The string formats the spec allows. */
export type McpStringFormat = 'email' | 'uri' | 'date' | 'date-time'

/** An option of a select: the value sent back and the label shown. */
export interface McpFieldOption { value: string; label: string }

interface FieldBase {
  name: string
  /** `title`, or the property name as words when there is none (`plan_tier` → "Plan tier"). */
  label: string
  description?: string
  required: boolean
}

/** One form field, by kind. `default` is present only when the schema's default is valid for it. */
export type McpFormField = FieldBase & (
  | { kind: 'text'; format?: McpStringFormat; minLength?: number; maxLength?: number; default?: string }
  | { kind: 'number'; integer: boolean; minimum?: number; maximum?: number; default?: number }
  | { kind: 'boolean'; default?: boolean }
  | { kind: 'select'; options: McpFieldOption[]; default?: string }
  | { kind: 'multiselect'; options: McpFieldOption[]; minItems?: number; maxItems?: number; default?: string[] }
)

/** The verdict of {@link readRequestedSchema}. */
export type ReadSchemaResult = { ok: true; fields: McpFormField[] } | { ok: false; error: string }

const FORMATS: readonly McpStringFormat[] = ['email', 'uri', 'date', 'date-time']

function isFormat(value: string): value is McpStringFormat {
  return FORMATS.some(format => format === value)
}

type Bag = Record<string, unknown>

function isBag(value: unknown): value is Bag {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function optionalString(bag: Bag, key: string): string | undefined {
  const value = bag[key]
  return typeof value === 'string' ? value : undefined
}

function optionalCount(bag: Bag, key: string): number | undefined {
  const value = bag[key]
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined
}

function optionalNumber(bag: Bag, key: string): number | undefined {
  const value = bag[key]
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every(item => typeof item === 'string')
}

/** `[{ const, title }]` (titled select) → options, or undefined when malformed. */
function titledOptions(value: unknown): McpFieldOption[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined
  const options: McpFieldOption[] = []
  for (const item of value) {
    if (!isBag(item) || typeof item.const !== 'string') return undefined
    options.push({ value: item.const, label: typeof item.title === 'string' ? item.title : item.const })
  }
  return options
}

/** `enum` (+ the deprecated `enumNames`) → options, or undefined when malformed. */
function enumOptions(values: unknown, names?: unknown): McpFieldOption[] | undefined {
  if (!isStringList(values) || values.length === 0) return undefined
  const labels = isStringList(names) && names.length === values.length ? names : values
  return values.map((value, index) => ({ value, label: labels[index] ?? value }))
}

function readString(base: FieldBase, bag: Bag): McpFormField | string {
  const enumerated = bag.enum !== undefined ? enumOptions(bag.enum, bag.enumNames) : bag.oneOf !== undefined ? titledOptions(bag.oneOf) : null
  const fallback = optionalString(bag, 'default')
  if (enumerated === undefined) return 'its enum/oneOf options are not a non-empty list of strings or { const, title }'
  if (enumerated !== null) {
    const valid = fallback !== undefined && enumerated.some(option => option.value === fallback)
    return { ...base, kind: 'select', options: enumerated, ...(valid ? { default: fallback } : {}) }
  }
  const format = optionalString(bag, 'format')
  if (format !== undefined && !isFormat(format)) return `format "${format}" is not one of ${FORMATS.join(', ')}`
  const field: McpFormField = { ...base, kind: 'text' }
  if (format !== undefined) field.format = format
  const minLength = optionalCount(bag, 'minLength')
  const maxLength = optionalCount(bag, 'maxLength')
  if (minLength !== undefined) field.minLength = minLength
  if (maxLength !== undefined) field.maxLength = maxLength
  if (fallback !== undefined) field.default = fallback
  return field
}

function readArray(base: FieldBase, bag: Bag): McpFormField | string {
  const items = bag.items
  if (!isBag(items)) return 'an array field needs `items` with `enum` or `anyOf`'
  const options = items.anyOf !== undefined ? titledOptions(items.anyOf) : enumOptions(items.enum)
  if (!options) return 'only arrays of enumerated strings (multi-select) are allowed'
  const field: McpFormField = { ...base, kind: 'multiselect', options }
  const minItems = optionalCount(bag, 'minItems')
  const maxItems = optionalCount(bag, 'maxItems')
  if (minItems !== undefined) field.minItems = minItems
  if (maxItems !== undefined) field.maxItems = maxItems
  const fallback = bag.default
  if (isStringList(fallback) && fallback.every(value => options.some(option => option.value === value))) field.default = [...fallback]
  return field
}

function readField(name: string, schema: unknown, required: boolean): McpFormField | string {
  if (!isBag(schema)) return 'its schema is not an object'
  const description = optionalString(schema, 'description')
  const base: FieldBase = { name, label: optionalString(schema, 'title') || readableLabel(name), required, ...(description ? { description } : {}) }
  switch (schema.type) {
    case 'string':
      return readString(base, schema)
    case 'number':
    case 'integer': {
      const integer = schema.type === 'integer'
      const field: McpFormField = { ...base, kind: 'number', integer }
      const minimum = optionalNumber(schema, 'minimum')
      const maximum = optionalNumber(schema, 'maximum')
      const fallback = optionalNumber(schema, 'default')
      if (minimum !== undefined) field.minimum = minimum
      if (maximum !== undefined) field.maximum = maximum
      if (fallback !== undefined && (!integer || Number.isInteger(fallback))) field.default = fallback
      return field
    }
    case 'boolean': {
      const fallback = schema.default
      return { ...base, kind: 'boolean', ...(typeof fallback === 'boolean' ? { default: fallback } : {}) }
    }
    case 'array':
      return readArray(base, schema)
    default:
      return `type ${JSON.stringify(schema.type) ?? 'undefined'} is not string, number, integer, boolean or array`
  }
}

/**
 * Turns a `requestedSchema` into form fields, in property order.
 *
 * @example
 * ```ts
 * const read = readRequestedSchema({ type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] })
 * if (read.ok) read.fields[0] // { name: 'name', label: 'Name', kind: 'text', required: true }
 * ```
 */
export function readRequestedSchema(schema: unknown): ReadSchemaResult {
  if (!isBag(schema) || schema.type !== 'object') return { ok: false, error: 'The requested schema is not a JSON Schema object.' }
  const properties = schema.properties === undefined ? {} : schema.properties
  if (!isBag(properties)) return { ok: false, error: 'The requested schema\'s `properties` is not an object.' }
  const required = isStringList(schema.required) ? new Set(schema.required) : new Set<string>()
  const fields: McpFormField[] = []
  for (const [name, property] of Object.entries(properties)) {
    const field = readField(name, property, required.has(name))
    if (typeof field === 'string') return { ok: false, error: `Field "${name}": ${field}.` }
    fields.push(field)
  }
  return { ok: true, fields }
}
