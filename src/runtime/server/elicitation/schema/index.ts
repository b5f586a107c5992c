import { createIdentityNumbers } from './identity'
import { emitField, type FieldDescription, type PrimitiveFieldSchema } from './fields'
import { describeJsonField } from './json-field'
import { checkSensitiveField } from './sensitive'
import { resolveShape, type FormShape, type ResolvedShape } from './shape'
import { describeZod3Field } from './zod3'
import { describeZod4Field } from './zod4'

/**
 * The one place that turns a form declaration (a Zod shape, or a Standard Schema library's object
 * schema) into a spec-exact MCP form-mode `requestedSchema` (2025-11-25
 * `ElicitRequestFormParams.requestedSchema`). Each library has a reader into one field
 * description (`fields.ts`); the rules that decide the wire are the same for all.
 *
 * Every property is built from an allowlist of keywords per spec variant (see `schema-fields.ts`),
 * never by cleaning up `z.toJSONSchema` output: whatever Zod adds in a future version cannot leak
 * onto the wire. Constraints the wire cannot express (exclusive number bounds, uuid/ipv4/regex
 * formats, `.refine()`, `.multipleOf()`) are left off the schema and enforced by
 * `parseFormAnswer`, which validates the answer with the same Zod shape.
 */

export type { FormShape, Zod3FormShape, Zod4FormShape } from './shape'
export type * from './fields'
export { formAnswerError, parseFormAnswer } from './answer'
export type { FormAnswer, FormOutput } from './answer'

/** Options of {@link toFormSchema}. */
export interface FormSchemaOptions {
  /**
   * Let fields that look like passwords, API keys, tokens or payment data through. Form mode MUST
   * NOT collect such data (use `elicit.url()`); set this only when the detection is wrong for a field.
   */
  allowSensitive?: boolean
}

/**
 * A form-mode `requestedSchema`: exactly `{ type, properties, required? }`, deeply frozen. A type
 * alias rather than an interface so it is assignable to the SDK's index-signature parameter types.
 */
export type ElicitFormSchema = {
  type: 'object'
  properties: Record<string, PrimitiveFieldSchema>
  required?: string[]
}

interface ConvertedField { wire: PrimitiveFieldSchema; required: boolean }

// Three levels, cheapest first. Inline shapes (`form({ schema: { a: NAME } })`) are new objects on
// every call, so identity alone rarely hits; their field schemas, though, are usually module-level
// constants, so (field name, field schema identity) pairs make a stable key for equal shapes.
const byShape = new WeakMap<object, [ElicitFormSchema?, ElicitFormSchema?]>()
const byFields = new Map<string, ElicitFormSchema>()
const byFieldSchema = new WeakMap<object, ConvertedField>()
const idOf = createIdentityNumbers()
// Inline field schemas (`z.string()` written in the call) get a new id each time; the bound keeps
// those one-off keys from growing the map forever.
const MAX_FIELD_KEYS = 500

function convertField(name: string, schema: object, describe: () => FieldDescription): ConvertedField {
  const cached = byFieldSchema.get(schema)
  if (cached) return cached
  const described = describe()
  const converted = { wire: emitField(name, described), required: described.required }
  byFieldSchema.set(schema, converted)
  return converted
}

function convertFields(shape: ResolvedShape): [string, ConvertedField][] {
  // A library's JSON Schema is made anew for each conversion: nothing to cache per field.
  if (shape.version === 'standard') {
    return shape.fields.map(([name, node]) => {
      const described = describeJsonField(name, node, shape.required.has(name), shape.vendor)
      return [name, { wire: emitField(name, described), required: described.required }]
    })
  }
  if (shape.version === 3) return shape.fields.map(([name, schema]) => [name, convertField(name, schema, () => describeZod3Field(name, schema))])
  return shape.fields.map(([name, schema]) => [name, convertField(name, schema, () => describeZod4Field(name, schema))])
}

function buildFormSchema(shape: ResolvedShape, allowSensitive: boolean): ElicitFormSchema {
  const fields = convertFields(shape)
  if (!allowSensitive) {
    for (const [name, { wire }] of fields) {
      const refusal = checkSensitiveField(name, wire)
      if (refusal) throw refusal
    }
  }
  // fromEntries defines own properties, so a field named "__proto__" stays a field.
  const properties = Object.fromEntries(fields.map(([name, { wire }]) => [name, wire]))
  const required = fields.filter(([, f]) => f.required).map(([name]) => name)
  // Zod's own required list would include defaulted fields; ours follows input optionality, and is
  // omitted when empty because some clients reject `required: []`.
  const root: ElicitFormSchema = required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties }
  Object.freeze(properties)
  Object.freeze(required)
  return Object.freeze(root)
}

/**
 * Converts a Zod shape into a spec-exact form-mode `requestedSchema`. Results are cached and deeply
 * frozen: share them, do not mutate them (and do not mutate a shape object after its first use).
 *
 * @throws McpElicitationError `invalid-schema` naming the field and the alternative, for anything a
 * form cannot hold (nested objects, non-enum arrays, other unions, dates, nullable, secrets, …).
 * @example
 * ```ts
 * toFormSchema({ channel: z.enum(['email', 'sms']), notify: z.boolean().default(true) })
 * // { type: 'object', properties: { channel: { type: 'string', enum: ['email', 'sms'] },
 * //   notify: { type: 'boolean', default: true } }, required: ['channel'] }
 * ```
 */
export function toFormSchema(shape: FormShape, options: FormSchemaOptions = {}): ElicitFormSchema {
  const slot = options.allowSensitive === true ? 1 : 0
  const hit = byShape.get(shape)?.[slot]
  if (hit) return hit
  const resolved = resolveShape(shape)
  // A Standard Schema object is its own key (its fields are not shared schema objects).
  if (resolved.version === 'standard') return remember(shape, slot, buildFormSchema(resolved, slot === 1))
  const key = slot + resolved.fields.map(([name, schema]) => `${JSON.stringify(name)}:${idOf(schema)}`).join(',')
  let schema = byFields.get(key)
  if (schema) byFields.delete(key) // re-inserted below: most recently used last
  schema ??= buildFormSchema(resolved, slot === 1)
  byFields.set(key, schema)
  if (byFields.size > MAX_FIELD_KEYS) byFields.delete(byFields.keys().next().value ?? '')
  return remember(shape, slot, schema)
}

function remember(shape: FormShape, slot: 0 | 1, schema: ElicitFormSchema): ElicitFormSchema {
  const slots = byShape.get(shape) ?? []
  slots[slot] = schema
  byShape.set(shape, slots)
  return schema
}
