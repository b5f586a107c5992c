import { globalRegistry } from 'zod/v4/core'
import type { $ZodType } from 'zod/v4/core'
import { isBag, readBag, readList, readNumber, readString, type Bag } from './read'
import { refuseKind } from './refusals'
import { enumValues, toOptions } from './options'
import type { FieldAnnotations, FieldDescription, FieldTypeOf, NumberBound, SelectOption, WireStringFormat } from './fields'

/**
 * Reads a Zod 4 field (classic or mini) into a {@link FieldDescription}. Only the input side
 * matters: a form shows what the client sends, and Zod parses it into the output afterwards.
 */

// Wrapper chains are short; a longer one is a self-referencing z.lazy.
const MAX_DEPTH = 64
const WIRE_FORMATS: Readonly<Record<string, WireStringFormat>> = { email: 'email', url: 'uri', date: 'date', datetime: 'date-time' }
// Real limits a user chose by picking the format; safeint/float ranges are implicit and dropped.
const INT_RANGES: Readonly<Record<string, readonly [number, number]>> = { int32: [-2147483648, 2147483647], uint32: [0, 4294967295] }
const EMPTY: Bag = {}

/**
 * Tells whether a value is a Zod 4 schema (classic or mini), by its `_zod` internals.
 *
 * @example
 * ```ts
 * isZod4Schema(z.string()) // true
 * isZod4Schema(z3.string()) // false
 * ```
 */
export function isZod4Schema(value: unknown): value is $ZodType {
  if (!isBag(value)) return false
  const internals = value._zod
  return isBag(internals) && isBag(internals.def) && internals.traits instanceof Set
}

/**
 * A schema's definition as plain data (empty for a non-schema).
 *
 * @example
 * ```ts
 * zod4Def(z.string()) // { type: 'string', … }
 * zod4Def('x') // {}
 * ```
 */
export function zod4Def(value: unknown): Bag {
  return isBag(value) && isBag(value._zod) ? readBag(value._zod, 'def') ?? EMPTY : EMPTY
}

/** Copies title/description/enumNames from a node's registry metadata; outer wrappers win. */
function collectMeta(node: $ZodType, notes: FieldAnnotations): void {
  const meta = globalRegistry.get(node)
  if (!meta) return
  if (notes.title === undefined && typeof meta.title === 'string') notes.title = meta.title
  if (notes.description === undefined && typeof meta.description === 'string') notes.description = meta.description
  if (notes.legacyEnumNames === undefined && typeof meta.enumNames === 'boolean') notes.legacyEnumNames = meta.enumNames
}

/** A format schema such as z.email() is its own first check; `.min()` etc. are in `def.checks`. */
function checksOf(node: $ZodType, def: Bag): Bag[] {
  const own = node._zod.traits.has('$ZodCheck') ? [def] : []
  return [...own, ...readList(def, 'checks').map(zod4Def)]
}

function readString4(node: $ZodType, def: Bag): FieldTypeOf<'string'> {
  let minLength: number | undefined
  let maxLength: number | undefined
  let format: WireStringFormat | undefined
  for (const check of checksOf(node, def)) {
    const kind = readString(check, 'check')
    const length = readNumber(check, 'length')
    const min = kind === 'min_length' ? readNumber(check, 'minimum') : kind === 'length_equals' ? length : undefined
    const max = kind === 'max_length' ? readNumber(check, 'maximum') : kind === 'length_equals' ? length : undefined
    if (min !== undefined) minLength = Math.max(minLength ?? min, min)
    if (max !== undefined) maxLength = Math.min(maxLength ?? max, max)
    if (kind !== 'string_format') continue
    const wire = WIRE_FORMATS[readString(check, 'format') ?? '']
    // Other formats (uuid, ipv4, regex, …) go out as a plain string and are enforced on the answer.
    // A local or minute-precision datetime accepts values `date-time` forbids, so it stays plain too.
    const lax = wire === 'date-time' && (check.local === true || readNumber(check, 'precision') === -1)
    if (wire) format = lax ? undefined : wire
  }
  return { kind: 'string', minLength, maxLength, format }
}

function readNumber4(node: $ZodType, def: Bag): FieldTypeOf<'number'> {
  const lower: NumberBound[] = []
  const upper: NumberBound[] = []
  let integer = false
  for (const check of checksOf(node, def)) {
    const kind = readString(check, 'check')
    const value = readNumber(check, 'value')
    const inclusive = check.inclusive === true
    if (kind === 'greater_than' && value !== undefined) lower.push({ value, inclusive })
    if (kind === 'less_than' && value !== undefined) upper.push({ value, inclusive })
    if (kind !== 'number_format') continue
    const format = readString(check, 'format') ?? ''
    if (format.includes('int')) integer = true
    const range = INT_RANGES[format]
    if (range) {
      lower.push({ value: range[0], inclusive: true })
      upper.push({ value: range[1], inclusive: true })
    }
  }
  return { kind: 'number', integer, lower, upper }
}

/** Options of `z.enum`/`z.literal` (untitled), or of a union of titled literals. */
function readOptions(field: string, node: unknown): { options: SelectOption[]; titled: boolean } {
  const def = zod4Def(node)
  const type = readString(def, 'type')
  if (type === 'enum') return { options: toOptions(field, enumValues(readBag(def, 'entries') ?? EMPTY), 'non-string-enum'), titled: false }
  if (type === 'literal') return { options: toOptions(field, readList(def, 'values'), 'non-string-literal'), titled: false }
  if (type !== 'union') throw refuseKind(field, type ?? 'not-zod')
  const members = readList(def, 'options')
  if (members.length === 0) throw refuseKind(field, 'empty-options')
  const options = members.flatMap((member) => {
    const memberDef = zod4Def(member)
    if (!isZod4Schema(member) || readString(memberDef, 'type') !== 'literal') throw refuseKind(field, 'union')
    const meta = globalRegistry.get(member)
    const title = typeof meta?.title === 'string' ? meta.title : typeof meta?.description === 'string' ? meta.description : undefined
    return toOptions(field, readList(memberDef, 'values'), 'non-string-literal', title)
  })
  return { options, titled: true }
}

function readMultiSelect(field: string, def: Bag): FieldTypeOf<'multi-select'> {
  const element = def.element
  const elementType = readString(zod4Def(element), 'type')
  if (elementType !== 'enum' && elementType !== 'literal' && elementType !== 'union') throw refuseKind(field, 'array')
  let minItems: number | undefined
  let maxItems: number | undefined
  for (const check of readList(def, 'checks').map(zod4Def)) {
    const kind = readString(check, 'check')
    const min = kind === 'min_length' ? readNumber(check, 'minimum') : kind === 'length_equals' ? readNumber(check, 'length') : undefined
    const max = kind === 'max_length' ? readNumber(check, 'maximum') : kind === 'length_equals' ? readNumber(check, 'length') : undefined
    if (min !== undefined) minItems = Math.max(minItems ?? min, min)
    if (max !== undefined) maxItems = Math.min(maxItems ?? max, max)
  }
  return { kind: 'multi-select', ...readOptions(field, element), minItems, maxItems }
}

/** The default value; a `.default(() => …)` getter may throw, which just means "no wire default". */
function readDefault(def: Bag): { value: unknown } | undefined {
  try {
    return { value: def.defaultValue }
  }
  catch {
    return undefined
  }
}

/**
 * Reads one Zod 4 field, unwrapping optional/default/readonly/catch/pipe/lazy, or throws
 * `invalid-schema` naming the field. `.refine()` and other checks do not change the wire type; they
 * are enforced when the answer is validated.
 *
 * @example
 * ```ts
 * describeZod4Field('age', z.number().int().min(0).optional())
 * // { kind: 'number', integer: true, lower: [{ value: 0, inclusive: true }], upper: [], required: false }
 * ```
 */
export function describeZod4Field(field: string, schema: $ZodType): FieldDescription {
  // Zod's own answer to "may the key be absent?": covers optional, default, prefault and catch.
  const notes: FieldAnnotations = { required: schema._zod.optin === undefined }
  let node: unknown = schema
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (!isZod4Schema(node)) throw refuseKind(field, 'not-zod')
    collectMeta(node, notes)
    const def = zod4Def(node)
    const type = readString(def, 'type') ?? 'unknown'
    switch (type) {
      case 'optional': case 'nonoptional': case 'readonly': case 'catch':
        node = def.innerType
        continue
      case 'default': case 'prefault':
        notes.defaultValue ??= readDefault(def)
        node = def.innerType
        continue
      case 'lazy':
        node = typeof def.getter === 'function' ? def.getter() : undefined
        continue
      case 'pipe':
        // The wire carries the pipe's input; a preprocess puts a transform there, whose input is unknown.
        if (readString(zod4Def(def.in), 'type') === 'transform') throw refuseKind(field, 'transform')
        node = def.in
        continue
      case 'string': return { ...notes, ...readString4(node, def) }
      // A template literal is a string with a pattern: plain string on the wire, checked on the answer.
      case 'template_literal': return { ...notes, kind: 'string' }
      case 'number': return { ...notes, ...readNumber4(node, def) }
      case 'boolean': return { ...notes, kind: 'boolean' }
      case 'enum': case 'literal': case 'union': return { ...notes, kind: 'select', ...readOptions(field, node) }
      case 'array': return { ...notes, ...readMultiSelect(field, def) }
      case 'undefined': case 'void': case 'never': throw refuseKind(field, 'null')
      default: throw refuseKind(field, type)
    }
  }
  throw refuseKind(field, 'too-deep')
}
