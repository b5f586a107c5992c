// The playground's scripted model (no AI key) calls the tool picked in the chat page with
// arguments made here from the tool's own `inputSchema`, so any tool the app defines can be tried
// there, not only the ones it ships with.

/**
 * A JSON Schema as a tool lists it (the parts read here).
 *
 * @example
 * ```ts
 * const schema: SampleSchema = { type: 'object', properties: { city: { type: 'string', minLength: 2 } }, required: ['city'] }
 * ```
 */
export interface SampleSchema {
  type?: string | string[]
  properties?: Record<string, SampleSchema>
  required?: string[]
  default?: unknown
  const?: unknown
  enum?: unknown[]
  examples?: unknown[]
  format?: string
  minimum?: number
  exclusiveMinimum?: number
  minLength?: number
  minItems?: number
  items?: SampleSchema
  anyOf?: SampleSchema[]
  oneOf?: SampleSchema[]
}

const FORMATS: Record<string, string> = {
  'date': '2026-12-24',
  'date-time': '2026-12-24T10:00:00Z',
  'time': '10:00:00',
  'email': 'ada@example.com',
  'uri': 'https://example.com/',
  'url': 'https://example.com/',
  'uuid': '00000000-0000-4000-8000-000000000000',
}

/**
 * A value `schema` accepts, for a scripted call: its default, const, first example or first
 * enum value when it has one; else a sample of its type within its lower bounds. Only the
 * properties it requires are filled in an object (the tool's defaults do the rest).
 *
 * @example
 * ```ts
 * sampleOf({ type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } }, required: ['city', 'days'] })
 * // { city: 'sample city', days: 1 }
 * ```
 */
export function sampleOf(schema: SampleSchema, name = 'value'): unknown {
  if (schema.default !== undefined) return schema.default
  if (schema.const !== undefined) return schema.const
  if (schema.examples?.length) return schema.examples[0]
  if (schema.enum?.length) return schema.enum[0]
  const variant = schema.anyOf?.[0] ?? schema.oneOf?.[0]
  if (variant) return sampleOf(variant, name)
  const type = Array.isArray(schema.type) ? schema.type.find(each => each !== 'null') : schema.type
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {}
      for (const key of schema.required ?? []) value[key] = sampleOf(schema.properties?.[key] ?? {}, key)
      return value
    }
    case 'array': return Array.from({ length: schema.minItems ?? 0 }, () => sampleOf(schema.items ?? {}, name))
    case 'integer': case 'number': return schema.minimum ?? (schema.exclusiveMinimum === undefined ? 1 : schema.exclusiveMinimum + 1)
    case 'boolean': return false
    case 'null': return null
    default: {
      const text = (schema.format && FORMATS[schema.format]) ?? `sample ${name}`
      return text.length >= (schema.minLength ?? 0) ? text : text.padEnd(schema.minLength ?? 0, '.')
    }
  }
}

/**
 * The arguments of a scripted call of a tool with `inputSchema`: {@link sampleOf} the schema, an
 * object (an empty one for a tool with no schema).
 *
 * @example
 * ```ts
 * sampleArguments({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }) // { name: 'sample name' }
 * ```
 */
export function sampleArguments(inputSchema: unknown): Record<string, unknown> {
  if (typeof inputSchema !== 'object' || inputSchema === null) return {}
  const value = sampleOf(inputSchema, 'arguments')
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value } : {}
}
