import { McpElicitationError } from '../error'
import type { PrimitiveFieldSchema } from './fields'

/** A form-mode `requestedSchema` (the shape `toFormSchema` returns). */
export type FormSchema = {
  type: 'object'
  properties: Record<string, PrimitiveFieldSchema>
  required?: string[]
}

/** The first revision with multi-selects, titled `oneOf` selects and defaults on every field. */
const FULL_FORMS_REVISION = '2025-11-25'

const downgraded = new WeakMap<FormSchema, FormSchema>()

function downgradeField(name: string, field: PrimitiveFieldSchema, revision: string): PrimitiveFieldSchema {
  if (field.type === 'array') {
    throw new McpElicitationError('invalid-schema', `Field "${name}" is a multi-select, which the client's protocol revision ${revision} cannot show (multi-selects came with 2025-11-25). Ask with single selects or booleans for such clients (check context.era and the client), or have the client upgrade.`, { field: name })
  }
  if (field.type === 'boolean') return field
  // 2025-06-18 has `default` on booleans only: the default is dropped from the wire, and an
  // answer without the field still gets it (the shape's `.default()` applies when parsing).
  const { default: _dropped, ...rest } = field
  if ('oneOf' in rest) {
    const { oneOf, ...labels } = rest
    return { ...labels, enum: oneOf.map(option => option.const), enumNames: oneOf.map(option => option.title) }
  }
  return rest
}

/**
 * The form `schema` as a client on protocol `revision` can show it. 2025-06-18 (the first
 * revision with elicitation) knows neither titled `oneOf` selects (sent as `enum` + `enumNames`)
 * nor defaults other than on booleans (dropped; the shape's default still fills the answer), nor
 * multi-selects (refused with `invalid-schema` naming the field and the revision). Later
 * revisions, and an unknown one, get the schema unchanged.
 *
 * @example
 * ```ts
 * const wire = formSchemaForRevision(toFormSchema(shape), '2025-06-18')
 * ```
 */
export function formSchemaForRevision(schema: FormSchema, revision: string | undefined): FormSchema {
  if (revision === undefined || revision >= FULL_FORMS_REVISION) return schema
  const cached = downgraded.get(schema)
  if (cached) return cached
  const properties: Record<string, PrimitiveFieldSchema> = {}
  for (const [name, field] of Object.entries(schema.properties)) {
    Object.defineProperty(properties, name, { value: downgradeField(name, field, revision), enumerable: true, writable: true, configurable: true })
  }
  const result = Object.freeze({ ...schema, properties })
  downgraded.set(schema, result)
  return result
}
