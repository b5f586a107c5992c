import { McpElicitationError } from '../error'

/** The only string formats the 2025-11-25 form schema allows. */
export type WireStringFormat = 'email' | 'uri' | 'date' | 'date-time'

/** An option of a titled select: the value sent back and the label shown. */
export interface TitledOption { const: string; title: string }

/** Keywords every field may carry. */
interface FieldBase { title?: string; description?: string }

export interface StringFieldSchema extends FieldBase { type: 'string'; minLength?: number; maxLength?: number; format?: WireStringFormat; default?: string }
export interface NumberFieldSchema extends FieldBase { type: 'number' | 'integer'; minimum?: number; maximum?: number; default?: number }
export interface BooleanFieldSchema extends FieldBase { type: 'boolean'; default?: boolean }
export interface SingleSelectFieldSchema extends FieldBase { type: 'string'; enum: string[]; default?: string }
export interface TitledSingleSelectFieldSchema extends FieldBase { type: 'string'; oneOf: TitledOption[]; default?: string }
/** Deprecated by the spec; emitted only on the per-field `.meta({ enumNames: true })` opt-in. */
export interface LegacyTitledEnumFieldSchema extends FieldBase { type: 'string'; enum: string[]; enumNames: string[]; default?: string }
interface MultiSelectBase extends FieldBase { type: 'array'; minItems?: number; maxItems?: number; default?: string[] }
export interface MultiSelectFieldSchema extends MultiSelectBase { items: { type: 'string'; enum: string[] } }
export interface TitledMultiSelectFieldSchema extends MultiSelectBase { items: { anyOf: TitledOption[] } }

/** One property of a form schema: exactly one of the spec's `PrimitiveSchemaDefinition` variants. */
export type PrimitiveFieldSchema =
  | StringFieldSchema | NumberFieldSchema | BooleanFieldSchema
  | SingleSelectFieldSchema | TitledSingleSelectFieldSchema | LegacyTitledEnumFieldSchema
  | MultiSelectFieldSchema | TitledMultiSelectFieldSchema

/**
 * A form-mode `requestedSchema`: exactly `{ type, properties, required? }`, deeply frozen. A type
 * alias rather than an interface so it is assignable to the SDK's index-signature parameter types.
 */
export type ElicitFormSchema = {
  type: 'object'
  properties: Record<string, PrimitiveFieldSchema>
  required?: string[]
}

/** A select option as read from Zod, before titles are defaulted. */
export interface SelectOption { value: string; title?: string }
/** A lower or upper numeric bound as Zod states it. */
export interface NumberBound { value: number; inclusive: boolean }

/**
 * What a Zod field means for a form, independent of the Zod version it was read from. The v3 and
 * v4 readers produce this; {@link emitField} alone decides what goes on the wire, so both Zod
 * versions follow the same allowlist.
 */
export type FieldDescription = FieldAnnotations & FieldType

/** The wire-relevant type of a field, as read from either Zod version. */
export type FieldType =
  | { kind: 'string'; minLength?: number; maxLength?: number; format?: WireStringFormat }
  | { kind: 'number'; integer: boolean; lower: NumberBound[]; upper: NumberBound[] }
  | { kind: 'boolean' }
  | { kind: 'select'; options: SelectOption[]; titled: boolean }
  | { kind: 'multi-select'; options: SelectOption[]; titled: boolean; minItems?: number; maxItems?: number }

/** One member of {@link FieldType}, e.g. `FieldTypeOf<'string'>`. */
export type FieldTypeOf<K extends FieldType['kind']> = Extract<FieldType, { kind: K }>

export interface FieldAnnotations {
  title?: string
  description?: string
  /** `.meta({ enumNames: true })`: emit the deprecated `enumNames` form for older clients. */
  legacyEnumNames?: boolean
  /** The outermost `.default()`/`.prefault()` value, boxed so `undefined` is distinguishable. */
  defaultValue?: { value: unknown }
  /** False when the client may leave the field out (optional or defaulted). */
  required: boolean
}

/**
 * Builds the `invalid-schema` error for a field that cannot go into a form, naming the field and
 * the way out.
 *
 * @example
 * ```ts
 * throw refuseField('address', 'nested objects are not allowed', 'Flatten it into several fields.')
 * ```
 */
export function refuseField(field: string, problem: string, suggestion: string): McpElicitationError {
  return new McpElicitationError('invalid-schema', `Form field "${field}": ${problem}. ${suggestion}`, { field })
}

// Bounds Zod adds on its own for `.int()`/`.safe()`/float formats: noise on the wire, and clients
// render them as absurd limits. Answer validation still enforces them.
const FLOAT32_MAX = 3.4028234663852886e38
const IMPLICIT_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, Number.MAX_VALUE, -Number.MAX_VALUE, FLOAT32_MAX, -FLOAT32_MAX])

/**
 * Folds Zod's bounds into the inclusive `minimum`/`maximum` the spec allows. Integers turn an
 * exclusive bound into its inclusive neighbour (`gt(0)` → `minimum: 1`); plain numbers have no
 * exact inclusive equivalent, so exclusive bounds are left off the wire and enforced only when the
 * answer is validated.
 *
 * @example
 * ```ts
 * foldBounds(true, [{ value: 0, inclusive: false }], 'lower') // 1
 * ```
 */
export function foldBounds(integer: boolean, bounds: readonly NumberBound[], side: 'lower' | 'upper'): number | undefined {
  let folded: number | undefined
  for (const { value, inclusive } of bounds) {
    if (!Number.isFinite(value) || IMPLICIT_BOUNDS.has(value)) continue
    let wire: number | undefined
    if (!integer) wire = inclusive ? value : undefined
    else if (side === 'lower') wire = inclusive ? Math.ceil(value) : Math.floor(value) + 1
    else wire = inclusive ? Math.floor(value) : Math.ceil(value) - 1
    if (wire === undefined) continue
    wire = wire === 0 ? 0 : wire // no -0 on the wire
    if (folded === undefined || (side === 'lower' ? wire > folded : wire < folded)) folded = wire
  }
  return folded
}

/** Keeps only options with distinct values: duplicate `enum`/`const` entries confuse clients. */
function uniqueOptions(options: readonly SelectOption[]): SelectOption[] {
  const seen = new Set<string>()
  return options.filter(option => !seen.has(option.value) && seen.add(option.value))
}

/** A length/count keyword must be a non-negative integer; Zod accepts fractional ones. */
function toCount(value: number | undefined, side: 'lower' | 'upper'): number | undefined {
  if (value === undefined || !Number.isFinite(value)) return undefined
  return Math.max(0, side === 'lower' ? Math.ceil(value) : Math.floor(value))
}

/**
 * The default to put on the wire, or `undefined`. Zod's `.default()` is an OUTPUT value (it may be
 * what a transform produces), so it is sent only when the client could send it back itself; the
 * field stays optional either way because Zod applies the default on parse.
 */
function wireDefault(field: FieldDescription, values: ReadonlySet<string>): FieldDescription['defaultValue'] {
  if (!field.defaultValue) return undefined
  const { value } = field.defaultValue
  const ok = field.kind === 'string' ? typeof value === 'string'
    : field.kind === 'number' ? typeof value === 'number' && Number.isFinite(value)
      : field.kind === 'boolean' ? typeof value === 'boolean'
        : field.kind === 'select' ? typeof value === 'string' && values.has(value)
          : Array.isArray(value) && value.every(item => typeof item === 'string' && values.has(item))
  return ok ? { value: Array.isArray(value) ? [...value] : value } : undefined
}

/**
 * Drops keywords whose value is `undefined` (a present-but-undefined key fails strict validators)
 * and freezes the result deeply, so cached schemas can be shared without copying.
 */
function finish<T extends object>(keywords: T): T {
  const kept: [string, unknown][] = Object.entries(keywords).filter(([, v]) => v !== undefined)
  for (const [, value] of kept) freezeDeep(value)
  // Same object type minus the undefined keys, which the optional keywords already allow.
  return Object.freeze(Object.fromEntries(kept)) as T
}

function freezeDeep(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return
  for (const child of Object.values(value)) freezeDeep(child)
  Object.freeze(value)
}

/**
 * Turns a field description into its wire schema, keeping only the keywords the spec allows for
 * that variant (an allowlist: nothing from Zod is copied through unchecked). The result is frozen.
 *
 * @example
 * ```ts
 * emitField('age', { kind: 'number', integer: true, lower: [{ value: 0, inclusive: false }], upper: [], required: true })
 * // { type: 'integer', minimum: 1 }
 * ```
 */
export function emitField(name: string, field: FieldDescription): PrimitiveFieldSchema {
  const labels = { title: field.title, description: field.description }
  const options = field.kind === 'select' || field.kind === 'multi-select' ? uniqueOptions(field.options) : []
  const fallback = wireDefault(field, new Set(options.map(o => o.value)))?.value
  const titled = (): TitledOption[] => options.map(o => ({ const: o.value, title: o.title ?? o.value }))
  const values = (): string[] => options.map(o => o.value)
  switch (field.kind) {
    case 'string': {
      const { minLength, maxLength, format } = field
      const lengths = { minLength: toCount(minLength, 'lower'), maxLength: toCount(maxLength, 'upper') }
      return finish<StringFieldSchema>({ type: 'string', ...labels, ...lengths, format, default: typeof fallback === 'string' ? fallback : undefined })
    }
    case 'number': {
      const { integer, lower, upper } = field
      const bounds = { minimum: foldBounds(integer, lower, 'lower'), maximum: foldBounds(integer, upper, 'upper') }
      return finish<NumberFieldSchema>({ type: integer ? 'integer' : 'number', ...labels, ...bounds, default: typeof fallback === 'number' ? fallback : undefined })
    }
    case 'boolean':
      return finish<BooleanFieldSchema>({ type: 'boolean', ...labels, default: typeof fallback === 'boolean' ? fallback : undefined })
    case 'select': {
      const chosen = typeof fallback === 'string' ? fallback : undefined
      if (field.legacyEnumNames) {
        return finish<LegacyTitledEnumFieldSchema>({ type: 'string', ...labels, enum: values(), enumNames: titled().map(o => o.title), default: chosen })
      }
      if (field.titled) return finish<TitledSingleSelectFieldSchema>({ type: 'string', ...labels, oneOf: titled(), default: chosen })
      return finish<SingleSelectFieldSchema>({ type: 'string', ...labels, enum: values(), default: chosen })
    }
    case 'multi-select': {
      if (field.legacyEnumNames) {
        throw refuseField(name, '`enumNames` applies to single selects only',
          'Remove `enumNames: true` from this multi-select; a union of titled z.literal gives titled options.')
      }
      const counts = { minItems: toCount(field.minItems, 'lower'), maxItems: toCount(field.maxItems, 'upper') }
      const chosen = Array.isArray(fallback) ? fallback.filter((v): v is string => typeof v === 'string') : undefined
      if (field.titled) return finish<TitledMultiSelectFieldSchema>({ type: 'array', ...labels, ...counts, items: { anyOf: titled() }, default: chosen })
      return finish<MultiSelectFieldSchema>({ type: 'array', ...labels, ...counts, items: { type: 'string', enum: values() }, default: chosen })
    }
  }
}

// A field description is shared by every form with a field of its structure: its wire is too.
const emitted = new WeakMap<FieldDescription, PrimitiveFieldSchema>()

/**
 * The wire schema of every field of a form, in order, each emitted once per field description;
 * throws the first field's refusal (kept by the reader, or found here), as the fields come.
 *
 * @example
 * ```ts
 * emitFields(readForm({ age: z.number().int() }).fields) // [['age', { type: 'integer' }, true]]
 * ```
 */
export function emitFields(fields: readonly { name: string, read: { ok: true, field: FieldDescription } | { ok: false, error: McpElicitationError } }[]): [string, PrimitiveFieldSchema, boolean][] {
  return fields.map(({ name, read }) => {
    if (!read.ok) throw read.error
    let wire = emitted.get(read.field)
    if (!wire) emitted.set(read.field, wire = emitField(name, read.field))
    return [name, wire, read.field.required]
  })
}
