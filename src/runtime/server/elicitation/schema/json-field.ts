import { refuseField } from './fields'
import type { FieldAnnotations, FieldDescription, FieldType, FieldTypeOf, NumberBound, SelectOption, WireStringFormat } from './fields'
import { isBag, readList, readNumber, readString, type Bag } from './read'
import type { McpElicitationError } from '../error'

/**
 * Reads one property of the JSON Schema a Standard Schema library produced (Valibot, ArkType, …)
 * into a {@link FieldDescription}, the same description the Zod readers produce: from there the one
 * set of form rules (`emitField`, the sensitive-field check) applies whatever the library. Only the
 * keywords that mean something in a form are read; the rest (`pattern`, `multipleOf`, unknown
 * formats) stays off the wire and is enforced when the library validates the answer.
 */

const WIRE_FORMATS: Readonly<Record<string, WireStringFormat>> = { 'email': 'email', 'uri': 'uri', 'date': 'date', 'date-time': 'date-time' }

/** The constructs a form refuses, as JSON Schema shows them. */
type JsonRefusal = 'object' | 'array' | 'union' | 'intersection' | 'nullable' | 'null' | 'ref' | 'untyped' | 'non-string-enum' | 'empty-options' | 'not-json'

const PRIMITIVES = 'a string, a number, an integer, a boolean, a picklist/enum of strings, or an array of such a picklist'

// [problem, suggestion]: library-neutral, since the schema may come from any library.
const REASONS: Record<JsonRefusal, readonly [string, string]> = {
  'object': ['nested objects are not allowed in a form', 'Flatten it into several top-level fields (e.g. "addressCity", "addressZip"), or ask with several forms.'],
  'intersection': ['intersections (allOf) are not allowed in a form', 'Write the field as one primitive: ' + PRIMITIVES + '.'],
  'array': ['the only arrays a form allows are multi-selects (an array of string options)', 'Use an array of a picklist/enum of strings, or a string the handler splits.'],
  'union': ['the only union a form allows is a union of string literals (a single select)', 'Use a picklist/enum of strings, or a union of string literals (with titles for labelled options).'],
  'nullable': ['a form value cannot be null', 'Make the field optional instead of nullable.'],
  'null': ['a form value cannot be null', 'Remove the field, or make it ' + PRIMITIVES + '.'],
  'ref': ['shared or recursive definitions ($ref) are not allowed in a form', 'Write the field inline as ' + PRIMITIVES + '.'],
  'untyped': ['its JSON Schema has no form type (a Date, a custom check, any/unknown?)', 'Use ' + PRIMITIVES + ' (a date as an ISO string).'],
  'non-string-enum': ['form options must be strings', 'Use string values and convert in the handler.'],
  'empty-options': ['a select needs at least one option', 'Give the picklist or union at least one string value.'],
  'not-json': ['its JSON Schema is not an object', 'Use ' + PRIMITIVES + '.'],
}

function refuse(field: string, kind: JsonRefusal, vendor: string): McpElicitationError {
  const [problem, suggestion] = REASONS[kind]
  return refuseField(field, `${problem} (${vendor} schema)`, suggestion)
}

/**
 * The option a `{ const, title? }` member stands for, or `undefined` for any other member. A
 * member title equal to the field's own is the field's title copied down (ArkType does that), not
 * a label of the option.
 */
function constOption(member: unknown, fieldTitle?: string): { value: unknown, title?: string } | undefined {
  if (!isBag(member) || !Object.hasOwn(member, 'const')) return undefined
  const title = readString(member, 'title') ?? readString(member, 'description')
  return title === undefined || title === fieldTitle ? { value: member.const } : { value: member.const, title }
}

function stringOptions(field: string, values: readonly { value: unknown, title?: string }[], vendor: string): SelectOption[] {
  if (values.length === 0) throw refuse(field, 'empty-options', vendor)
  return values.map(({ value, title }) => {
    if (typeof value !== 'string') throw refuse(field, 'non-string-enum', vendor)
    return title === undefined ? { value } : { value, title }
  })
}

/** `enum`, `const`, or an `anyOf`/`oneOf` of `const` members (titled when a member has a title); else `undefined`. */
function readOptions(field: string, node: Bag, vendor: string): { options: SelectOption[], titled: boolean } | undefined {
  if (Array.isArray(node.enum)) return { options: stringOptions(field, node.enum.map(value => ({ value })), vendor), titled: false }
  // A lone `const` is a one-option select; its title is the field's.
  if (Object.hasOwn(node, 'const')) return { options: stringOptions(field, [{ value: node.const }], vendor), titled: false }
  const members = readList(node, 'anyOf').length > 0 ? readList(node, 'anyOf') : readList(node, 'oneOf')
  if (members.length === 0) return undefined
  const fieldTitle = readString(node, 'title')
  const options = members.map(member => constOption(member, fieldTitle))
  if (!options.every(option => option !== undefined)) return undefined
  return { options: stringOptions(field, options, vendor), titled: options.some(option => option.title !== undefined) }
}

/** A union whose members are all strings (ArkType writes `string.uuid` so): a plain string on the wire. */
function isStringUnion(members: readonly unknown[]): boolean {
  return members.every(member => isBag(member) && (readString(member, 'type') === 'string' || typeof member.const === 'string'))
}

function readStringField(node: Bag): FieldTypeOf<'string'> {
  return { kind: 'string', minLength: readNumber(node, 'minLength'), maxLength: readNumber(node, 'maxLength'), format: WIRE_FORMATS[readString(node, 'format') ?? ''] }
}

function readNumberField(node: Bag, integer: boolean): FieldTypeOf<'number'> {
  const bound = (key: string, inclusive: boolean): NumberBound[] => {
    const value = readNumber(node, key)
    return value === undefined ? [] : [{ value, inclusive }]
  }
  return { kind: 'number', integer, lower: [...bound('minimum', true), ...bound('exclusiveMinimum', false)], upper: [...bound('maximum', true), ...bound('exclusiveMaximum', false)] }
}

function readMultiSelect(field: string, node: Bag, vendor: string): FieldTypeOf<'multi-select'> {
  const items = node.items
  const options = isBag(items) ? readOptions(field, items, vendor) : undefined
  if (!options) throw refuse(field, 'array', vendor)
  return { kind: 'multi-select', ...options, minItems: readNumber(node, 'minItems'), maxItems: readNumber(node, 'maxItems') }
}

/** The field's type from its `type` keyword (or its options), refusing what a form cannot hold. */
function readType(field: string, node: Bag, vendor: string): FieldType {
  if (typeof node.$ref === 'string' || typeof node.$dynamicRef === 'string') throw refuse(field, 'ref', vendor)
  if (readList(node, 'allOf').length > 0) throw refuse(field, 'intersection', vendor)
  const members = [...readList(node, 'anyOf'), ...readList(node, 'oneOf')]
  const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type]
  if (types.includes('null') || members.some(member => isBag(member) && readString(member, 'type') === 'null')) {
    throw refuse(field, types.length === 1 && members.length === 0 ? 'null' : 'nullable', vendor)
  }
  const options = readOptions(field, node, vendor)
  if (options) return { kind: 'select', ...options }
  if (members.length > 0) {
    if (isStringUnion(members)) return readStringField(node)
    throw refuse(field, 'union', vendor)
  }
  if (types.length > 1) throw refuse(field, 'union', vendor)
  switch (types[0]) {
    case 'string': return readStringField(node)
    case 'number': return readNumberField(node, false)
    case 'integer': return readNumberField(node, true)
    case 'boolean': return { kind: 'boolean' }
    case 'array': return readMultiSelect(field, node, vendor)
    case 'object': throw refuse(field, 'object', vendor)
    default: throw refuse(field, 'untyped', vendor)
  }
}

/**
 * Reads one property of a library's JSON Schema, or throws `invalid-schema` naming the field, the
 * library and the way out. `required` comes from the object's `required` list (the input side:
 * a field with a default is not required there).
 *
 * @example
 * ```ts
 * describeJsonField('age', { type: 'integer', minimum: 0 }, true, 'valibot')
 * // { kind: 'number', integer: true, lower: [{ value: 0, inclusive: true }], upper: [], required: true }
 * ```
 */
export function describeJsonField(field: string, node: unknown, required: boolean, vendor: string): FieldDescription {
  if (!isBag(node)) throw refuse(field, node === false ? 'untyped' : 'not-json', vendor)
  const notes: FieldAnnotations = {
    required,
    title: readString(node, 'title'),
    description: readString(node, 'description'),
    defaultValue: Object.hasOwn(node, 'default') ? { value: node.default } : undefined,
  }
  return { ...notes, ...readType(field, node, vendor) }
}
