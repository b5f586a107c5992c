import { readStandardJsonSchema, type McpStandardSchema } from '../../common/standard-schema'
import { McpElicitationError } from '../error'
import { isBag, readList, type Bag } from './read'

/**
 * A form declared with a Standard Schema object (Valibot through `toStandardJsonSchema()`,
 * ArkType, …): its library's own JSON Schema converter says what the fields are, and its own
 * `validate` checks the answer. Nothing library-specific is read beyond the two Standard
 * interfaces, so a library implementing them works without code here.
 */
export interface StandardForm {
  version: 'standard'
  schema: McpStandardSchema
  vendor: string
  /** Each property of the library's JSON Schema (the input side), in the converter's order. */
  fields: [string, unknown][]
  /** Fields the input side requires (a field with a default is not among them). */
  required: ReadonlySet<string>
}

function refuseForm(vendor: string, problem: string, fix: string): McpElicitationError {
  return new McpElicitationError('invalid-schema', `The form's ${vendor} schema ${problem}: ${fix}`)
}

function convert(schema: McpStandardSchema, vendor: string): { properties: Bag, required: readonly unknown[] } {
  const read = readStandardJsonSchema(schema, 'input')
  if (!read.ok && read.missing) throw refuseForm(vendor, 'has no JSON Schema converter (~standard.jsonSchema), so its fields cannot be shown', `${read.fix}.`)
  if (!read.ok) {
    throw refuseForm(vendor, `could not be converted to JSON Schema (${read.error})`,
      'leave out what JSON Schema cannot say (transforms, custom checks on the input type), or describe the form with a Zod shape.')
  }
  const converted = read.json
  // An object without `properties` (ArkType's `type({})`) has no fields, refused by the caller.
  const properties = converted.type === 'object' ? converted.properties ?? {} : undefined
  if (!isBag(properties)) {
    throw refuseForm(vendor, 'is not an object schema', 'a form is named fields: describe an object, such as v.object({ name: v.string() }) or type({ name: "string" }).')
  }
  return { properties, required: readList(converted, 'required') }
}

/**
 * Reads a Standard Schema form into its fields, or throws `invalid-schema` naming the library and
 * the fix: no JSON Schema converter (a bare Valibot schema), a conversion that fails, a schema
 * that is not an object, no fields.
 *
 * @example
 * ```ts
 * resolveStandardForm(type({ name: 'string', 'age?': 'number' }))
 * // { version: 'standard', vendor: 'arktype', fields: [['name', { type: 'string' }], ['age', { type: 'number' }]], required: Set { 'name' }, … }
 * ```
 */
export function resolveStandardForm(schema: McpStandardSchema): StandardForm {
  const vendor = schema['~standard'].vendor
  const converted = convert(schema, vendor)
  const fields = Object.entries(converted.properties)
  if (fields.length === 0) {
    throw new McpElicitationError('invalid-schema', 'The form has no fields: a form must ask for at least one value. Add a field, or skip the elicitation.')
  }
  const required = new Set(converted.required.filter(name => typeof name === 'string'))
  return { version: 'standard', schema, vendor, fields, required }
}
