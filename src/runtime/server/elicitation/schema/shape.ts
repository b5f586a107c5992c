import type { $ZodObject, $ZodType } from 'zod/v4/core'
import type * as z3 from 'zod/v3'
import { isStandardSchema, type McpStandardSchema } from '../../common/standard-schema'
import { McpElicitationError } from '../error'
import { isBag, readString } from './read'
import { refuseField } from './fields'
import { refuseKind } from './refusals'
import { isZod3Schema, zod3Def } from './zod3'
import { isZod4Schema, zod4Def } from './zod4'
import { resolveStandardForm, type StandardForm } from './standard-form'

/** A raw Zod 4 shape (classic or mini schemas): `{ name: z.string() }`. */
export type Zod4FormShape = { readonly [field: string]: $ZodType }
/** A raw Zod 3 shape (`zod/v3` or zod@3 schemas). */
export type Zod3FormShape = { readonly [field: string]: z3.ZodTypeAny }

/**
 * What a form is declared with: a raw Zod shape (the usual way), a `z.object(...)` whose `.shape`
 * is used, or an object schema of another Standard Schema library with a JSON Schema converter
 * (Valibot through `toStandardJsonSchema()`, ArkType). One Zod version per form: a shape mixing
 * `zod` and `zod/v3` fields is refused, because the answer is validated by one `z.object` of one
 * version.
 */
export type FormShape = Zod4FormShape | Zod3FormShape | $ZodObject | z3.AnyZodObject | McpStandardSchema

/** A shape split into its fields, tagged with the one Zod version they all use, or the Standard Schema library's. */
export type ResolvedShape =
  | { version: 4; fields: [string, $ZodType][]; object?: $ZodType }
  | { version: 3; fields: [string, z3.ZodTypeAny][]; object?: z3.ZodTypeAny }
  | StandardForm

const NOT_A_SHAPE = 'A form schema must be a raw Zod shape such as { name: z.string(), age: z.number() }, a z.object({...}), or an object schema of a Standard Schema library (Valibot, ArkType)'

function refuseShape(received: string): McpElicitationError {
  return new McpElicitationError('invalid-schema', `${NOT_A_SHAPE}; received ${received}.`)
}

/** The raw shape inside a z.object of either version, or `undefined` for any other schema. */
function shapeOfObject(value: unknown): unknown {
  if (isZod4Schema(value)) {
    const def = zod4Def(value)
    if (readString(def, 'type') !== 'object') throw refuseShape(`z.${readString(def, 'type') ?? 'unknown'}()`)
    return def.shape
  }
  if (isZod3Schema(value)) {
    const def = zod3Def(value)
    if (readString(def, 'typeName') !== 'ZodObject') throw refuseShape(`a ${readString(def, 'typeName') ?? 'Zod'} schema`)
    return typeof def.shape === 'function' ? def.shape() : undefined
  }
  return value
}

/**
 * Splits a form declaration into its fields and checks they are Zod schemas of one version.
 * Throws `invalid-schema` for a non-object, an empty shape (a form with no fields asks nothing),
 * a non-Zod value or mixed Zod versions.
 *
 * @example
 * ```ts
 * resolveShape({ name: z.string() }) // { version: 4, fields: [['name', z.string()]] }
 * resolveShape(z.object({ name: z.string() })) // same fields, object: the z.object
 * resolveShape(type({ name: 'string' })) // { version: 'standard', vendor: 'arktype', … }
 * ```
 */
export function resolveShape(shape: unknown): ResolvedShape {
  // Zod objects are Standard Schemas too; they keep the Zod reading, which loses nothing.
  if (!isZod4Schema(shape) && !isZod3Schema(shape) && isStandardSchema(shape)) return resolveStandardForm(shape)
  const raw = shapeOfObject(shape)
  if (!isBag(raw)) throw refuseShape(raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw)
  const entries = Object.entries(raw)
  if (entries.length === 0) {
    throw new McpElicitationError('invalid-schema', 'The form has no fields: a form must ask for at least one value. Add a field, or skip the elicitation.')
  }
  const v4: [string, $ZodType][] = []
  const v3: [string, z3.ZodTypeAny][] = []
  for (const [field, schema] of entries) {
    if (isZod4Schema(schema)) v4.push([field, schema])
    else if (isZod3Schema(schema)) v3.push([field, schema])
    else throw refuseKind(field, 'not-zod')
  }
  if (v4.length > 0 && v3.length > 0) {
    const [odd] = v3.length < v4.length ? v3[0] ?? [''] : v4[0] ?? ['']
    throw refuseField(odd, 'the form mixes Zod 4 and zod/v3 schemas',
      'Use one Zod version per form: import every field from "zod", or every field from "zod/v3".')
  }
  if (v3.length > 0) return { version: 3, fields: v3, object: isZod3Schema(shape) ? shape : undefined }
  return { version: 4, fields: v4, object: isZod4Schema(shape) ? shape : undefined }
}
