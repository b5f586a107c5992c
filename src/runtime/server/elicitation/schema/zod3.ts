import type * as z3 from 'zod/v3'
import { isBag, readBag, readList, readNumber, readString, type Bag } from './read'
import { refuseKind } from './refusals'
import { enumValues, toOptions } from './options'
import type { FieldAnnotations, FieldDescription, FieldTypeOf, NumberBound, SelectOption, WireStringFormat } from './fields'

/**
 * Reads a Zod 3 field (`zod/v3`, or a separate zod@3 install) into a {@link FieldDescription} by
 * walking `_def`, so v3 shapes follow exactly the rules and allowlist of v4 ones. Zod 3 has no
 * `.meta()`: a field's title cannot be set, descriptions come from `.describe()`, and a titled
 * literal's label comes from its `.describe()`.
 */

const MAX_DEPTH = 64
const WIRE_FORMATS: Readonly<Record<string, WireStringFormat>> = { email: 'email', url: 'uri', date: 'date', datetime: 'date-time' }
// v3 type names that only differ from the shared refusal vocabulary by spelling.
const RENAMED: Readonly<Record<string, string>> = {
  ZodDiscriminatedUnion: 'union', ZodNativeEnum: 'enum', ZodBigInt: 'bigint', ZodUndefined: 'null', ZodVoid: 'null', ZodNever: 'null', ZodNaN: 'unknown',
}

/**
 * Tells whether a value is a Zod 3 schema: a `_def` with a `typeName` and no Zod 4 `_zod`.
 *
 * @example
 * ```ts
 * isZod3Schema(z3.string()) // true
 * isZod3Schema(z.string()) // false (Zod 4 also has `_def`, but it has `_zod` too)
 * ```
 */
export function isZod3Schema(value: unknown): value is z3.ZodTypeAny {
  return isBag(value) && !('_zod' in value) && isBag(value._def) && typeof value._def.typeName === 'string' && typeof value.safeParse === 'function'
}

/**
 * A schema's definition as plain data (empty for a non-schema).
 *
 * @example
 * ```ts
 * zod3Def(z3.string()) // { typeName: 'ZodString', checks: [], … }
 * zod3Def('x') // {}
 * ```
 */
export function zod3Def(value: unknown): Bag {
  return isBag(value) ? readBag(value, '_def') ?? {} : {}
}

/** `ZodDiscriminatedUnion` → `union`, `ZodObject` → `object`: the shared refusal vocabulary. */
function kindOf(typeName: string): string {
  return RENAMED[typeName] ?? typeName.replace(/^Zod/, '').replace(/^./, c => c.toLowerCase())
}

function checkBounds(check: Bag): { min?: number; max?: number } {
  const kind = readString(check, 'kind')
  const value = readNumber(check, 'value')
  return { min: kind === 'min' || kind === 'length' ? value : undefined, max: kind === 'max' || kind === 'length' ? value : undefined }
}

function readString3(def: Bag): FieldTypeOf<'string'> {
  let minLength: number | undefined
  let maxLength: number | undefined
  let format: WireStringFormat | undefined
  for (const check of readList(def, 'checks').filter(isBag)) {
    const { min, max } = checkBounds(check)
    if (min !== undefined) minLength = Math.max(minLength ?? min, min)
    if (max !== undefined) maxLength = Math.min(maxLength ?? max, max)
    const wire = WIRE_FORMATS[readString(check, 'kind') ?? '']
    // Same rule as v4: other formats are enforced on the answer; a lax datetime stays a plain string.
    if (wire) format = wire === 'date-time' && (check.local === true || readNumber(check, 'precision') === -1) ? undefined : wire
  }
  return { kind: 'string', minLength, maxLength, format }
}

function readNumber3(def: Bag): FieldTypeOf<'number'> {
  const lower: NumberBound[] = []
  const upper: NumberBound[] = []
  let integer = false
  for (const check of readList(def, 'checks').filter(isBag)) {
    const kind = readString(check, 'kind')
    const value = readNumber(check, 'value')
    if (kind === 'int') integer = true
    if (value === undefined) continue
    if (kind === 'min') lower.push({ value, inclusive: check.inclusive === true })
    if (kind === 'max') upper.push({ value, inclusive: check.inclusive === true })
  }
  return { kind: 'number', integer, lower, upper }
}

function readOptions(field: string, node: unknown): { options: SelectOption[]; titled: boolean } {
  const def = zod3Def(node)
  const typeName = readString(def, 'typeName') ?? ''
  if (typeName === 'ZodEnum') return { options: toOptions(field, readList(def, 'values'), 'non-string-enum'), titled: false }
  if (typeName === 'ZodNativeEnum') return { options: toOptions(field, enumValues(readBag(def, 'values') ?? {}), 'non-string-enum'), titled: false }
  if (typeName === 'ZodLiteral') return { options: toOptions(field, [def.value], 'non-string-literal'), titled: false }
  if (typeName !== 'ZodUnion') throw refuseKind(field, kindOf(typeName))
  const members = readList(def, 'options')
  if (members.length === 0) throw refuseKind(field, 'empty-options')
  const options = members.flatMap((member) => {
    const memberDef = zod3Def(member)
    if (readString(memberDef, 'typeName') !== 'ZodLiteral') throw refuseKind(field, 'union')
    return toOptions(field, [memberDef.value], 'non-string-literal', readString(memberDef, 'description'))
  })
  return { options, titled: true }
}

function readMultiSelect3(field: string, def: Bag): FieldTypeOf<'multi-select'> {
  const element = def.type
  if (!['ZodEnum', 'ZodNativeEnum', 'ZodLiteral', 'ZodUnion'].includes(readString(zod3Def(element), 'typeName') ?? '')) throw refuseKind(field, 'array')
  const exact = readNumber(readBag(def, 'exactLength') ?? {}, 'value')
  const min = readNumber(readBag(def, 'minLength') ?? {}, 'value') ?? exact
  const max = readNumber(readBag(def, 'maxLength') ?? {}, 'value') ?? exact
  return { kind: 'multi-select', ...readOptions(field, element), minItems: min, maxItems: max }
}

function readDefault(def: Bag): { value: unknown } | undefined {
  try {
    return typeof def.defaultValue === 'function' ? { value: def.defaultValue() } : undefined
  }
  catch {
    return undefined
  }
}

/**
 * Reads one Zod 3 field, unwrapping optional/default/catch/readonly/branded/lazy/pipeline and
 * refinements, or throws `invalid-schema` naming the field.
 *
 * @example
 * ```ts
 * describeZod3Field('email', z3.string().email().describe('Work email'))
 * // { kind: 'string', format: 'email', description: 'Work email', required: true }
 * ```
 */
export function describeZod3Field(field: string, schema: z3.ZodTypeAny): FieldDescription {
  const notes: FieldAnnotations = { required: true }
  let node: unknown = schema
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const def = zod3Def(node)
    const typeName = readString(def, 'typeName')
    if (typeName === undefined) throw refuseKind(field, 'not-zod')
    notes.description ??= readString(def, 'description')
    switch (typeName) {
      case 'ZodOptional': case 'ZodCatch':
        notes.required = false
        node = def.innerType
        continue
      case 'ZodDefault':
        notes.required = false
        notes.defaultValue ??= readDefault(def)
        node = def.innerType
        continue
      case 'ZodReadonly': node = def.innerType; continue
      case 'ZodBranded': node = def.type; continue
      case 'ZodPipeline': node = def.in; continue
      case 'ZodLazy': node = typeof def.getter === 'function' ? def.getter() : undefined; continue
      case 'ZodEffects':
        // refine/superRefine/transform keep the input type; a preprocess makes it unknowable.
        if (readString(readBag(def, 'effect') ?? {}, 'type') === 'preprocess') throw refuseKind(field, 'transform')
        node = def.schema
        continue
      case 'ZodString': return { ...notes, ...readString3(def) }
      case 'ZodNumber': return { ...notes, ...readNumber3(def) }
      case 'ZodBoolean': return { ...notes, kind: 'boolean' }
      case 'ZodEnum': case 'ZodNativeEnum': case 'ZodLiteral': case 'ZodUnion':
        return { ...notes, kind: 'select', ...readOptions(field, node) }
      case 'ZodArray': return { ...notes, ...readMultiSelect3(field, def) }
      default: throw refuseKind(field, kindOf(typeName))
    }
  }
  throw refuseKind(field, 'too-deep')
}
