import { $ZodDefault, globalRegistry } from 'zod/v4/core'
import type { $ZodObject, $ZodType } from 'zod/v4/core'
import type * as z3 from 'zod/v3'
import { isStandardSchema, readStandardJsonSchema, type McpStandardSchema } from '../../common/standard-schema'
import { McpElicitationError } from '../error'
import { refuseField } from './fields'
import type { ElicitFormSchema, FieldAnnotations, FieldDescription, FieldType, FieldTypeOf, NumberBound, SelectOption, WireStringFormat } from './fields'
import { refuseKind } from './refusals'

/**
 * Reading a form declaration, in one pass, into one neutral node ({@link FormNode}): a raw Zod
 * shape (Zod 4 classic or mini, or `zod/v3`), a `z.object(...)` of either, or another Standard
 * Schema library's object schema read through the JSON Schema its own converter makes. Each field
 * is read once into a {@link FieldDescription} and, for Zod 4, fingerprinted in the same walk down
 * its wrapper chain, so that structurally equal inline shapes (new objects on every call) share
 * one node: one description, one wire schema, one digest, one validator. Everything after this
 * file (the wire schema, the sensitive-field check, the revision downgrade, answer parsing) works
 * from the node and never reads Zod or JSON Schema again.
 *
 * Zod's definitions are read as plain data rather than through its TypeScript types: the caller's
 * schemas may come from another copy or minor version of Zod (or from `zod/v3`), so every
 * property is checked at run time instead of trusted, and nothing here throws on an unexpected
 * shape but the `invalid-schema` refusals, which name the field and the way out.
 */

// ─── Reading plain data ─────────────────────────────────────────────────────────────────────

/** A read-only view of an object whose properties are not known in advance. */
export type Bag = Readonly<Record<string, unknown>>

const EMPTY: Bag = {}

/**
 * Tells whether a value is a non-null, non-array object.
 *
 * @example
 * ```ts
 * isBag({ a: 1 }) // true
 * isBag([1]) // false
 * ```
 */
export function isBag(value: unknown): value is Bag {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Reads a string property, or `undefined` when it is missing or not a string.
 *
 * @example
 * ```ts
 * readString({ type: 'string' }, 'type') // 'string'
 * ```
 */
export function readString(bag: Bag, key: string): string | undefined {
  const value = bag[key]
  return typeof value === 'string' ? value : undefined
}

/**
 * Reads a finite-or-infinite number property (not NaN), or `undefined`.
 *
 * @example
 * ```ts
 * readNumber({ value: 3 }, 'value') // 3
 * ```
 */
export function readNumber(bag: Bag, key: string): number | undefined {
  const value = bag[key]
  return typeof value === 'number' && !Number.isNaN(value) ? value : undefined
}

/**
 * Reads an object property, or `undefined` when it is missing or not an object.
 *
 * @example
 * ```ts
 * readBag({ minLength: { value: 1 } }, 'minLength') // { value: 1 }
 * ```
 */
export function readBag(bag: Bag, key: string): Bag | undefined {
  const value = bag[key]
  return isBag(value) ? value : undefined
}

/**
 * Reads an array property, or an empty array when it is missing or not an array.
 *
 * @example
 * ```ts
 * readList({ checks: [1] }, 'checks') // [1]
 * ```
 */
export function readList(bag: Bag, key: string): readonly unknown[] {
  const value = bag[key]
  return Array.isArray(value) ? value : []
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** Numbers objects by identity; the numbering holds nothing alive. Cache keys built from these tell equal-looking objects apart. */
const idOf = (() => {
  const ids = new WeakMap<object, number>()
  let next = 0
  return (object: object): number => {
    let id = ids.get(object)
    if (id === undefined) ids.set(object, id = next++)
    return id
  }
})()

/** Enum values the way Zod computes them (both versions): a numeric enum's reverse-mapping keys are not values. */
function enumValues(entries: Bag): unknown[] {
  const numeric = new Set(Object.values(entries).filter(v => typeof v === 'number'))
  return Object.entries(entries).filter(([key]) => !numeric.has(Number(key))).map(([, v]) => v)
}

/** Enum or literal values as select options, refusing non-string and empty lists; a title labels a single-valued literal only. */
function toOptions(field: string, values: readonly unknown[], kind: 'non-string-enum' | 'non-string-literal', title?: string): SelectOption[] {
  if (values.length === 0) throw refuseKind(field, 'empty-options')
  return values.map((value) => {
    if (typeof value !== 'string') throw refuseKind(field, kind)
    return values.length === 1 && title !== undefined ? { value, title } : { value }
  })
}

// ─── The node ───────────────────────────────────────────────────────────────────────────────

/** A raw Zod 4 shape (classic or mini schemas): `{ name: z.string() }`. */
export type Zod4FormShape = { readonly [field: string]: $ZodType }
/** A raw Zod 3 shape (`zod/v3` or zod@3 schemas). */
export type Zod3FormShape = { readonly [field: string]: z3.ZodTypeAny }

/**
 * What a form is declared with: a raw Zod shape (the usual way), a `z.object(...)` whose `.shape`
 * is used, or an object schema of another Standard Schema library with a JSON Schema converter
 * (Valibot through `toStandardJsonSchema()`, ArkType). One Zod version per form: a shape mixing
 * `zod` and `zod/v3` fields is refused, because the answer is validated by one version.
 */
export type FormShape = Zod4FormShape | Zod3FormShape | $ZodObject | z3.AnyZodObject | McpStandardSchema

/**
 * One field of a form, read: what it means for a form (or why a form cannot hold it, thrown when
 * the form is built, not when an answer is parsed) and, for Zod, the schema its answer is
 * validated with (for a Zod 4 field, the first one seen with the same structure).
 */
export interface FormField<S = unknown> {
  name: string
  schema: S
  read: { ok: true, field: FieldDescription } | { ok: false, error: McpElicitationError }
}

/** What the three kinds of node have in common; `shape` types the answer (`FormOutput<S>`). */
interface FormNodeBase<S> {
  /** The declaration the node was read from: for a raw Zod 4 shape, the shared shape of shared fields. */
  shape: S
  /** The field names, to refuse an answer's unknown keys before any validator runs. */
  names: ReadonlySet<string>
  /** The wire schema, per `allowSensitive` (0: refused, 1: allowed), filled once by `formSchemaOf`. */
  wire: [ElicitFormSchema?, ElicitFormSchema?]
}

/**
 * A form declaration read once: its fields in order, each described, and how its answer is
 * validated (the raw shape field by field, the `z.object` as written, or the library's own
 * `validate`). Equal inline Zod 4 shapes get the very same node.
 */
export type FormNode<S = FormShape> = FormNodeBase<S> & (
  | { version: 4, fields: readonly FormField<$ZodType>[], object?: $ZodType }
  | { version: 3, fields: readonly FormField<z3.ZodTypeAny>[], object?: z3.ZodTypeAny }
  | { version: 'standard', fields: readonly FormField<undefined>[], schema: McpStandardSchema, vendor: string }
)

// Distinct fields and shapes an app asks with are few; the bounds keep unusual apps from growing these forever.
const MAX_ENTRIES = 500
/** Nodes by the object they were read from (a hoisted shape, a z.object, a Standard Schema, a shared shape). */
const nodes = new WeakMap<object, FormNode>()
/** Raw-shape nodes by their fields (name and schema identity): equal inline shapes meet here. */
const nodesByFields = new Map<string, FormNode>()
/** Zod 4 fields by structure (the fingerprint): the first field seen with it, described. */
const fieldsByKey = new Map<string, Omit<FormField<$ZodType>, 'name'>>()
/** Fields by schema object: module-level field constants are read once. */
const fields4BySchema = new WeakMap<$ZodType, Omit<FormField<$ZodType>, 'name'>>()
const fields3BySchema = new WeakMap<z3.ZodTypeAny, Omit<FormField<z3.ZodTypeAny>, 'name'>>()

function remember<T>(map: Map<string, T>, key: string, value: T): T {
  map.set(key, value)
  if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value ?? '')
  return value
}

function refuseShape(received: string): McpElicitationError {
  return new McpElicitationError('invalid-schema', `A form schema must be a raw Zod shape such as { name: z.string(), age: z.number() }, a z.object({...}), or an object schema of a Standard Schema library (Valibot, ArkType); received ${received}.`)
}

function refuseEmpty(): McpElicitationError {
  return new McpElicitationError('invalid-schema', 'The form has no fields: a form must ask for at least one value. Add a field, or skip the elicitation.')
}

/** Runs a field reader, keeping its refusal for when the form is built. */
function attempt(read: () => FieldDescription): FormField['read'] {
  try {
    return { ok: true, field: read() }
  }
  catch (error) {
    if (error instanceof McpElicitationError) return { ok: false, error }
    throw error
  }
}

/**
 * Reads a form declaration into its node, once: a raw shape is split into its fields, each field
 * read (and, for Zod 4, fingerprinted) in one walk, and equal inline shapes share the node of the
 * first. Throws `invalid-schema` for what is not a form at all (a non-object, no fields, a non-Zod
 * field, mixed Zod versions, a Standard Schema without a JSON Schema converter or not an object);
 * a field a form cannot hold is refused later, when the form is built (`toFormSchema`), so its
 * answers can still be parsed.
 *
 * @example
 * ```ts
 * const node = readForm({ name: z.string().min(2) })
 * readForm({ name: z.string().min(2) }) === node // true: same structure, new objects
 * node.fields[0] // { name: 'name', schema: …, read: { ok: true, field: { kind: 'string', minLength: 2, required: true } } }
 * ```
 */
export function readForm<S extends FormShape>(shape: S): FormNode<S> {
  const known = nodes.get(shape)
  // A node read from `shape` has `shape` (or its shared twin, of the same structure) as its type.
  if (known) return known as FormNode<S>
  const node = readNode(shape)
  nodes.set(shape, node)
  return node as FormNode<S>
}

function readNode(shape: FormShape): FormNode {
  if (isZod4Schema(shape)) return readZodObject4(shape)
  if (isZod3Schema(shape)) return readZodObject3(shape)
  // Zod objects are Standard Schemas too; they keep the Zod reading above, which loses nothing.
  // (A raw shape has no `~standard`: it is told apart without a call.)
  if ((typeof shape === 'function' || isBag(shape)) && '~standard' in shape && isStandardSchema(shape)) return readStandardForm(shape)
  if (!isBag(shape)) throw refuseShape(shape === null ? 'null' : Array.isArray(shape) ? 'an array' : typeof shape)
  return readRawShape(shape, undefined)
}

function readZodObject4(object: $ZodType): FormNode {
  const def = zod4Def(object)
  if (readString(def, 'type') !== 'object') throw refuseShape(`z.${readString(def, 'type') ?? 'unknown'}()`)
  const raw = def.shape
  if (!isBag(raw)) throw refuseShape(raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw)
  return readRawShape(raw, object)
}

function readZodObject3(object: z3.ZodTypeAny): FormNode {
  const def = zod3Def(object)
  if (readString(def, 'typeName') !== 'ZodObject') throw refuseShape(`a ${readString(def, 'typeName') ?? 'Zod'} schema`)
  const raw = typeof def.shape === 'function' ? def.shape() : undefined
  if (!isBag(raw)) throw refuseShape(raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw)
  return readRawShape(raw, object)
}

/**
 * A raw shape (or a z.object's) read field by field, checked to be Zod of one version. A raw
 * shape's node is shared by every shape with the same fields (name and schema identity, after
 * Zod 4 fields are shared by structure); a z.object's belongs to that object (its own checks run).
 */
function readRawShape(raw: Bag, object: z3.ZodTypeAny | $ZodType | undefined): FormNode {
  const entries = Object.entries(raw)
  if (entries.length === 0) throw refuseEmpty()
  const v4: [string, $ZodType][] = []
  const v3: [string, z3.ZodTypeAny][] = []
  for (const [name, schema] of entries) {
    if (isZod4Schema(schema)) v4.push([name, schema])
    else if (isZod3Schema(schema)) v3.push([name, schema])
    else throw refuseKind(name, 'not-zod')
  }
  if (v4.length > 0 && v3.length > 0) {
    const [odd] = v3.length < v4.length ? v3[0] ?? [''] : v4[0] ?? ['']
    throw refuseField(odd, 'the form mixes Zod 4 and zod/v3 schemas',
      'Use one Zod version per form: import every field from "zod", or every field from "zod/v3".')
  }
  const fields3 = v3.length > 0 ? v3.map(([name, schema]): FormField<z3.ZodTypeAny> => ({ name, ...readField3(name, schema) })) : undefined
  const fields4 = fields3 ? [] : v4.map(([name, schema]): FormField<$ZodType> => ({ name, ...readField4(name, schema) }))
  const fields: readonly FormField<object>[] = fields3 ?? fields4
  const key = object ? undefined : `${v3.length > 0 ? 3 : 4}${fields.map(({ name, schema }) => `${quote(name)}:${idOf(schema)}`).join(',')}`
  const known = key === undefined ? undefined : nodesByFields.get(key)
  if (known) return known
  const names = new Set(entries.map(([name]) => name))
  // fromEntries defines own properties, so a field named "__proto__" stays a field.
  const node: FormNode = fields3
    ? { version: 3, fields: fields3, object: isZod3Schema(object) ? object : undefined, shape: object ?? Object.freeze(Object.fromEntries(fields3.map(({ name, schema }) => [name, schema]))), names, wire: [] }
    : { version: 4, fields: fields4, object: isZod4Schema(object) ? object : undefined, shape: object ?? Object.freeze(Object.fromEntries(fields4.map(({ name, schema }) => [name, schema]))), names, wire: [] }
  // The shared shape is a declaration too: reading it again finds this node.
  if (!object) nodes.set(node.shape, node)
  return key === undefined ? node : remember(nodesByFields, key, node)
}

// ─── Zod 4 ──────────────────────────────────────────────────────────────────────────────────

// Wrapper chains are short; a longer one is a self-referencing z.lazy.
const MAX_DEPTH = 64
// Definitions deeper than any form field (`z.lazy()` cycles, exotic nesting) are not shared.
const MAX_KEY_DEPTH = 12
const WIRE_FORMATS: Readonly<Record<string, WireStringFormat>> = { email: 'email', url: 'uri', date: 'date', datetime: 'date-time' }
// Real limits a user chose by picking the format; safeint/float ranges are implicit and dropped.
const INT_RANGES: Readonly<Record<string, readonly [number, number]>> = { int32: [-2147483648, 2147483647], uint32: [0, 4294967295] }
/** The wrappers a form sees through, and the key of their definition that holds the wrapped schema. */
const LINKS: Readonly<Record<string, string>> = {
  optional: 'innerType', nonoptional: 'innerType', readonly: 'innerType', catch: 'innerType', default: 'innerType', prefault: 'innerType', pipe: 'in',
}

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

/** A Zod 4 schema's definition, read as plain data. */
function defOf(node: $ZodType): Bag {
  const def: unknown = node._zod.def
  return isBag(def) ? def : EMPTY
}

/**
 * One node of a field's wrapper chain as the walk read it: its definition, type and registry
 * metadata, and for a `.default()`/`.prefault()` the value its default has now (read once).
 */
interface Link {
  node: $ZodType
  def: Bag
  type: string
  meta: Bag | undefined
  fallback?: { value: unknown } | undefined
}

/**
 * The structure of any value found in a Zod definition, or `undefined` when it cannot be told
 * apart safely. Two fields are shared only when nothing can tell them apart: the same data, equal
 * metadata, and every function (a `.refine()` check, a transform, a custom message, Zod's own
 * helpers) the very same function object.
 */
function fingerprintOf(value: unknown, depth: number): string | undefined {
  if (depth > MAX_KEY_DEPTH) return undefined
  switch (typeof value) {
    case 'string': return quote(value)
    case 'number': case 'boolean': return String(value)
    case 'undefined': return 'u'
    case 'bigint': return `${value}n`
    case 'function': return `f${idOf(value)}`
    case 'symbol': return undefined
  }
  // Only objects are left (and null); the switch above returned for every other kind.
  if (typeof value !== 'object' || value === null) return value === null ? 'null' : undefined
  if (value instanceof RegExp) return `/${value.source}/${value.flags}`
  if (Array.isArray(value)) return listFingerprint(value, depth)
  if (isZod4Schema(value)) return nodeFingerprint(value, defOf(value), globalRegistry.get(value), depth, undefined)
  return isPlainObject(value) ? objectFingerprint(value, depth, undefined) : undefined
}

/** A Zod node's structure: its definition (less `skip`, the wrapped schema the walk reads next) and its metadata. */
function nodeFingerprint(node: $ZodType, def: Bag, meta: unknown, depth: number, skip: string | undefined): string | undefined {
  // `.superRefine()` and `.check()` keep their function on the check instance, not in its definition.
  if (def.check === 'custom' && typeof def.fn !== 'function') return undefined
  const shape = objectFingerprint(def, depth + 1, skip)
  const metaKey = fingerprintOf(meta, depth + 1)
  return shape === undefined || metaKey === undefined ? undefined : `Z${shape}${metaKey}`
}

function listFingerprint(items: readonly unknown[], depth: number): string | undefined {
  let key = '['
  for (const item of items) {
    const part = fingerprintOf(item, depth + 1)
    if (part === undefined) return undefined
    key += `${part},`
  }
  return `${key}]`
}

function objectFingerprint(object: Bag, depth: number, skip: string | undefined): string | undefined {
  let key = '{'
  for (const name of Object.keys(object)) {
    if (name === skip) continue
    // A getter (Zod's `.default()` value) may call a function on every read: never read one here.
    if (Object.getOwnPropertyDescriptor(object, name)?.get) return undefined
    const part = fingerprintOf(object[name], depth + 1)
    if (part === undefined) return undefined
    key += `${quote(name)}:${part},`
  }
  return `${key}}`
}

/** A string in a key, length first: unambiguous without escaping (cheaper than `JSON.stringify`). */
function quote(text: string): string {
  return `${text.length}"${text}`
}

function isPlainJson(value: unknown, depth = 0): boolean {
  if (depth > MAX_KEY_DEPTH) return false
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value)
  if (Array.isArray(value)) return value.every(item => isPlainJson(item, depth + 1))
  return typeof value === 'object' && isPlainObject(value) && Object.values(value).every(item => isPlainJson(item, depth + 1))
}

/** The value a `.default()`/`.prefault()` has now; a `.default(() => …)` that throws means "no value". */
function readFallback(def: Bag): { value: unknown } | undefined {
  try {
    return { value: def.defaultValue }
  }
  catch {
    return undefined
  }
}

/** What one walk down a field's wrapper chain found. */
interface Walk {
  chain: Link[]
  /** False when the chain ends on something that is not Zod, or nests too deep. */
  complete: boolean
  /** The field's structure, or `undefined` when it cannot be shared. */
  key: string | undefined
  /** The key of what an outermost `.default()` wraps. */
  innerKey: string | undefined
  /** A `.default()`/`.prefault()` in the chain: its value may change between asks. */
  defaulted: boolean
}

/**
 * Walks a Zod 4 field's wrapper chain once, reading each node's definition and metadata, and
 * fingerprints the chain as it goes.
 */
function walk4(field: $ZodType): Walk {
  const walk: Walk = { chain: [], complete: false, key: '', innerKey: undefined, defaulted: false }
  let node: unknown = field
  // A lazy's getter is part of the key (by identity); what it returns is read, not fingerprinted.
  let keyed = true
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (!isZod4Schema(node)) {
      if (keyed && walk.key !== undefined) {
        const tail = fingerprintOf(node, 0) ?? ''
        walk.key += tail
        if (walk.innerKey !== undefined) walk.innerKey += tail
      }
      return walk
    }
    const def = defOf(node)
    const type = readString(def, 'type') ?? 'unknown'
    const meta = globalRegistry.get(node)
    const link: Link = { node, def, type, meta }
    walk.chain.push(link)
    const inner = LINKS[type]
    if (type === 'default' || type === 'prefault') {
      link.fallback = readFallback(def)
      walk.defaulted = true
    }
    if (keyed && walk.key !== undefined) {
      // The outermost `.default()` is shared by the value it has now (see `sharedDefault`).
      const part = depth === 0 && type === 'default' ? defaultKey(def, meta, link.fallback) : nodeFingerprint(node, def, meta, depth * 2, inner)
      walk.key = part === undefined || depth * 2 > MAX_KEY_DEPTH ? undefined : `${walk.key}${part}>`
      if (depth === 0 && type === 'default') walk.innerKey = ''
      else if (walk.innerKey !== undefined && walk.key !== undefined) walk.innerKey += `${part}>`
    }
    if (type === 'lazy') {
      keyed = false
      node = typeof def.getter === 'function' ? def.getter() : undefined
      continue
    }
    if (inner === undefined) {
      walk.complete = true
      return walk
    }
    node = def[inner]
  }
  walk.key = undefined
  return walk
}

/** The key part of an outermost `.default()`: its metadata and its value now, when plain JSON; else unshared. */
function defaultKey(def: Bag, meta: Bag | undefined, fallback: { value: unknown } | undefined): string | undefined {
  const checks = def.checks
  if (Array.isArray(checks) && checks.length > 0) return undefined
  // A registry id must stay unique, so a field that has one is not copied.
  if (meta && 'id' in meta) return undefined
  if (!fallback || !isPlainJson(fallback.value)) return undefined
  const metaKey = fingerprintOf(meta, 1)
  return metaKey === undefined ? undefined : `D${JSON.stringify(fallback.value)}${metaKey}`
}

/**
 * The shared node of a `.default()` field: the first inner field seen with its structure, and its
 * value now as a constant. A primitive is the value itself; an array or object is copied on each
 * read (as Zod copies its defaults), so no answer can change what the next one gets.
 */
function sharedDefault(inner: $ZodType, link: Link): $ZodType {
  const constant = link.fallback?.value
  const node = typeof constant === 'object' && constant !== null
    ? new $ZodDefault({
        type: 'default',
        innerType: inner,
        get defaultValue() {
          return structuredClone(constant)
        },
      })
    : new $ZodDefault({ type: 'default', innerType: inner, defaultValue: constant })
  if (link.meta) globalRegistry.add(node, link.meta)
  return node
}

/**
 * Reads one Zod 4 field: the first field seen with its structure when it can be shared (with its
 * description), else the field as it is, described. A field with a default is read on every ask,
 * since its default may be a function whose value changes.
 */
function readField4(name: string, schema: $ZodType): Omit<FormField<$ZodType>, 'name'> {
  const cached = fields4BySchema.get(schema)
  if (cached) return cached
  const { chain, complete, key, innerKey, defaulted } = walk4(schema)
  const shared = key === undefined ? undefined : fieldsByKey.get(key)
  if (shared) {
    if (!defaulted) fields4BySchema.set(schema, shared)
    return shared
  }
  const read = attempt(() => describe4(name, schema, chain, complete))
  const field = { schema: shareDefault(name, chain, complete, key, innerKey) ?? schema, read }
  if (!read.ok) return field
  if (key !== undefined) remember(fieldsByKey, key, field)
  if (!defaulted) fields4BySchema.set(schema, field)
  return field
}

/**
 * For a shareable field whose outermost wrapper is `.default()`: its shared node, around the
 * first inner field seen with the inner structure. The inner field is shared on its own.
 */
function shareDefault(name: string, chain: readonly Link[], complete: boolean, key: string | undefined, innerKey: string | undefined): $ZodType | undefined {
  const [first] = chain
  if (key === undefined || innerKey === undefined || first?.type !== 'default' || !isZod4Schema(first.def.innerType)) return undefined
  const innerSchema = first.def.innerType
  let inner = fieldsByKey.get(innerKey)
  if (!inner) {
    const read = attempt(() => describe4(name, innerSchema, chain.slice(1), complete))
    if (!read.ok) return undefined
    inner = remember(fieldsByKey, innerKey, { schema: innerSchema, read })
  }
  return sharedDefault(inner.schema, first)
}

/** A format schema such as z.email() is its own first check; `.min()` etc. are in `def.checks`. */
function checksOf(link: Link): Bag[] {
  const own = link.node._zod.traits.has('$ZodCheck') ? [link.def] : []
  return [...own, ...readList(link.def, 'checks').map(zod4Def)]
}

function readString4(link: Link): FieldTypeOf<'string'> {
  let minLength: number | undefined
  let maxLength: number | undefined
  let format: WireStringFormat | undefined
  for (const check of checksOf(link)) {
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

function readNumber4(link: Link): FieldTypeOf<'number'> {
  const lower: NumberBound[] = []
  const upper: NumberBound[] = []
  let integer = false
  for (const check of checksOf(link)) {
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
function readOptions4(field: string, node: unknown): { options: SelectOption[], titled: boolean } {
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

function readMultiSelect4(field: string, def: Bag): FieldTypeOf<'multi-select'> {
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
  return { kind: 'multi-select', ...readOptions4(field, element), minItems, maxItems }
}

/**
 * Describes a Zod 4 field from the chain its walk read (optional/default/readonly/catch/pipe/lazy
 * seen through), or throws `invalid-schema` naming the field. Only the input side matters: a form
 * shows what the client sends, and Zod parses it into the output afterwards. `.refine()` and
 * other checks do not change the wire type; they are enforced when the answer is validated.
 */
function describe4(field: string, schema: $ZodType, chain: readonly Link[], complete: boolean): FieldDescription {
  // Zod's own answer to "may the key be absent?": covers optional, default, prefault and catch.
  const notes: FieldAnnotations = { required: schema._zod.optin === undefined }
  for (const link of chain) {
    const { meta, def, type } = link
    // Outer wrappers' metadata wins.
    if (meta) {
      if (notes.title === undefined && typeof meta.title === 'string') notes.title = meta.title
      if (notes.description === undefined && typeof meta.description === 'string') notes.description = meta.description
      if (notes.legacyEnumNames === undefined && typeof meta.enumNames === 'boolean') notes.legacyEnumNames = meta.enumNames
    }
    switch (type) {
      case 'optional': case 'nonoptional': case 'readonly': case 'catch': case 'lazy':
        continue
      case 'default': case 'prefault':
        notes.defaultValue ??= link.fallback
        continue
      case 'pipe':
        // The wire carries the pipe's input; a preprocess puts a transform there, whose input is unknown.
        if (readString(zod4Def(def.in), 'type') === 'transform') throw refuseKind(field, 'transform')
        continue
      case 'string': return { ...notes, ...readString4(link) }
      // A template literal is a string with a pattern: plain string on the wire, checked on the answer.
      case 'template_literal': return { ...notes, kind: 'string' }
      case 'number': return { ...notes, ...readNumber4(link) }
      case 'boolean': return { ...notes, kind: 'boolean' }
      case 'enum': case 'literal': case 'union': return { ...notes, kind: 'select', ...readOptions4(field, link.node) }
      case 'array': return { ...notes, ...readMultiSelect4(field, def) }
      case 'undefined': case 'void': case 'never': throw refuseKind(field, 'null')
      default: throw refuseKind(field, type)
    }
  }
  // The chain ended on something that is not Zod, or went on past any real field.
  throw refuseKind(field, !complete && chain.length >= MAX_DEPTH ? 'too-deep' : 'not-zod')
}

// ─── Zod 3 ──────────────────────────────────────────────────────────────────────────────────

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

/** A Zod 3 schema's definition as plain data (empty for a non-schema). */
function zod3Def(value: unknown): Bag {
  return isBag(value) ? readBag(value, '_def') ?? EMPTY : EMPTY
}

/** `ZodDiscriminatedUnion` → `union`, `ZodObject` → `object`: the shared refusal vocabulary. */
function kindOf(typeName: string): string {
  return RENAMED[typeName] ?? typeName.replace(/^Zod/, '').replace(/^./, c => c.toLowerCase())
}

function checkBounds(check: Bag): { min?: number, max?: number } {
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

function readOptions3(field: string, node: unknown): { options: SelectOption[], titled: boolean } {
  const def = zod3Def(node)
  const typeName = readString(def, 'typeName') ?? ''
  if (typeName === 'ZodEnum') return { options: toOptions(field, readList(def, 'values'), 'non-string-enum'), titled: false }
  if (typeName === 'ZodNativeEnum') return { options: toOptions(field, enumValues(readBag(def, 'values') ?? EMPTY), 'non-string-enum'), titled: false }
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
  const exact = readNumber(readBag(def, 'exactLength') ?? EMPTY, 'value')
  const min = readNumber(readBag(def, 'minLength') ?? EMPTY, 'value') ?? exact
  const max = readNumber(readBag(def, 'maxLength') ?? EMPTY, 'value') ?? exact
  return { kind: 'multi-select', ...readOptions3(field, element), minItems: min, maxItems: max }
}

function readDefault3(def: Bag): { value: unknown } | undefined {
  try {
    return typeof def.defaultValue === 'function' ? { value: def.defaultValue() } : undefined
  }
  catch {
    return undefined
  }
}

/**
 * Describes a Zod 3 field by walking `_def` (optional/default/catch/readonly/branded/lazy/pipeline
 * and refinements seen through), so v3 shapes follow exactly the rules and allowlist of v4 ones,
 * or throws `invalid-schema` naming the field. Zod 3 has no `.meta()`: descriptions come from
 * `.describe()`, and a titled literal's label too.
 */
function describe3(field: string, schema: z3.ZodTypeAny): FieldDescription {
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
        notes.defaultValue ??= readDefault3(def)
        node = def.innerType
        continue
      case 'ZodReadonly': node = def.innerType; continue
      case 'ZodBranded': node = def.type; continue
      case 'ZodPipeline': node = def.in; continue
      case 'ZodLazy': node = typeof def.getter === 'function' ? def.getter() : undefined; continue
      case 'ZodEffects':
        // refine/superRefine/transform keep the input type; a preprocess makes it unknowable.
        if (readString(readBag(def, 'effect') ?? EMPTY, 'type') === 'preprocess') throw refuseKind(field, 'transform')
        node = def.schema
        continue
      case 'ZodString': return { ...notes, ...readString3(def) }
      case 'ZodNumber': return { ...notes, ...readNumber3(def) }
      case 'ZodBoolean': return { ...notes, kind: 'boolean' }
      case 'ZodEnum': case 'ZodNativeEnum': case 'ZodLiteral': case 'ZodUnion':
        return { ...notes, kind: 'select', ...readOptions3(field, node) }
      case 'ZodArray': return { ...notes, ...readMultiSelect3(field, def) }
      default: throw refuseKind(field, kindOf(typeName))
    }
  }
  throw refuseKind(field, 'too-deep')
}

/** Reads one Zod 3 field, once per schema object (Zod 3 fields are not shared by structure). */
function readField3(name: string, schema: z3.ZodTypeAny): Omit<FormField<z3.ZodTypeAny>, 'name'> {
  const cached = fields3BySchema.get(schema)
  if (cached) return cached
  const field = { schema, read: attempt(() => describe3(name, schema)) }
  if (field.read.ok) fields3BySchema.set(schema, field)
  return field
}

// ─── A Standard Schema, through its JSON Schema ─────────────────────────────────────────────

const JSON_FORMATS: Readonly<Record<string, WireStringFormat>> = { 'email': 'email', 'uri': 'uri', 'date': 'date', 'date-time': 'date-time' }

/** The constructs a form refuses, as JSON Schema shows them. */
type JsonRefusal = 'object' | 'array' | 'union' | 'intersection' | 'nullable' | 'null' | 'ref' | 'untyped' | 'non-string-enum' | 'empty-options' | 'not-json'

const PRIMITIVES = 'a string, a number, an integer, a boolean, a picklist/enum of strings, or an array of such a picklist'

// [problem, suggestion]: library-neutral, since the schema may come from any library.
const JSON_REASONS: Record<JsonRefusal, readonly [string, string]> = {
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

function refuseJson(field: string, kind: JsonRefusal, vendor: string): McpElicitationError {
  const [problem, suggestion] = JSON_REASONS[kind]
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
  if (values.length === 0) throw refuseJson(field, 'empty-options', vendor)
  return values.map(({ value, title }) => {
    if (typeof value !== 'string') throw refuseJson(field, 'non-string-enum', vendor)
    return title === undefined ? { value } : { value, title }
  })
}

/** `enum`, `const`, or an `anyOf`/`oneOf` of `const` members (titled when a member has a title); else `undefined`. */
function readJsonOptions(field: string, node: Bag, vendor: string): { options: SelectOption[], titled: boolean } | undefined {
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

function readJsonString(node: Bag): FieldTypeOf<'string'> {
  return { kind: 'string', minLength: readNumber(node, 'minLength'), maxLength: readNumber(node, 'maxLength'), format: JSON_FORMATS[readString(node, 'format') ?? ''] }
}

function readJsonNumber(node: Bag, integer: boolean): FieldTypeOf<'number'> {
  const bound = (key: string, inclusive: boolean): NumberBound[] => {
    const value = readNumber(node, key)
    return value === undefined ? [] : [{ value, inclusive }]
  }
  return { kind: 'number', integer, lower: [...bound('minimum', true), ...bound('exclusiveMinimum', false)], upper: [...bound('maximum', true), ...bound('exclusiveMaximum', false)] }
}

function readJsonMultiSelect(field: string, node: Bag, vendor: string): FieldTypeOf<'multi-select'> {
  const items = node.items
  const options = isBag(items) ? readJsonOptions(field, items, vendor) : undefined
  if (!options) throw refuseJson(field, 'array', vendor)
  return { kind: 'multi-select', ...options, minItems: readNumber(node, 'minItems'), maxItems: readNumber(node, 'maxItems') }
}

/** The field's type from its `type` keyword (or its options), refusing what a form cannot hold. */
function readJsonType(field: string, node: Bag, vendor: string): FieldType {
  if (typeof node.$ref === 'string' || typeof node.$dynamicRef === 'string') throw refuseJson(field, 'ref', vendor)
  if (readList(node, 'allOf').length > 0) throw refuseJson(field, 'intersection', vendor)
  const members = [...readList(node, 'anyOf'), ...readList(node, 'oneOf')]
  const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type]
  if (types.includes('null') || members.some(member => isBag(member) && readString(member, 'type') === 'null')) {
    throw refuseJson(field, types.length === 1 && members.length === 0 ? 'null' : 'nullable', vendor)
  }
  const options = readJsonOptions(field, node, vendor)
  if (options) return { kind: 'select', ...options }
  if (members.length > 0) {
    if (isStringUnion(members)) return readJsonString(node)
    throw refuseJson(field, 'union', vendor)
  }
  if (types.length > 1) throw refuseJson(field, 'union', vendor)
  switch (types[0]) {
    case 'string': return readJsonString(node)
    case 'number': return readJsonNumber(node, false)
    case 'integer': return readJsonNumber(node, true)
    case 'boolean': return { kind: 'boolean' }
    case 'array': return readJsonMultiSelect(field, node, vendor)
    case 'object': throw refuseJson(field, 'object', vendor)
    default: throw refuseJson(field, 'untyped', vendor)
  }
}

/**
 * Describes one property of a library's JSON Schema (only the keywords that mean something in a
 * form; `pattern`, `multipleOf` and unknown formats stay off the wire and are enforced when the
 * library validates the answer), or throws `invalid-schema` naming the field, the library and the
 * way out. `required` comes from the object's `required` list (the input side: a field with a
 * default is not required there).
 */
function describeJson(field: string, node: unknown, required: boolean, vendor: string): FieldDescription {
  if (!isBag(node)) throw refuseJson(field, node === false ? 'untyped' : 'not-json', vendor)
  const notes: FieldAnnotations = {
    required,
    title: readString(node, 'title'),
    description: readString(node, 'description'),
    defaultValue: Object.hasOwn(node, 'default') ? { value: node.default } : undefined,
  }
  return { ...notes, ...readJsonType(field, node, vendor) }
}

function refuseStandard(vendor: string, problem: string, fix: string): McpElicitationError {
  return new McpElicitationError('invalid-schema', `The form's ${vendor} schema ${problem}: ${fix}`)
}

/**
 * A Standard Schema form (Valibot through `toStandardJsonSchema()`, ArkType, …): its library's own
 * JSON Schema converter says what the fields are (the input side), and its own `validate` checks
 * the answer. Nothing library-specific is read beyond the two Standard interfaces. Refuses, naming
 * the library and the fix: no converter (a bare Valibot schema), a conversion that fails, a schema
 * that is not an object, no fields.
 */
function readStandardForm(schema: McpStandardSchema): FormNode {
  const vendor = schema['~standard'].vendor
  const read = readStandardJsonSchema(schema, 'input')
  if (!read.ok && read.missing) throw refuseStandard(vendor, 'has no JSON Schema converter (~standard.jsonSchema), so its fields cannot be shown', `${read.fix}.`)
  if (!read.ok) {
    throw refuseStandard(vendor, `could not be converted to JSON Schema (${read.error})`,
      'leave out what JSON Schema cannot say (transforms, custom checks on the input type), or describe the form with a Zod shape.')
  }
  const converted = read.json
  // An object without `properties` (ArkType's `type({})`) has no fields, refused below.
  const properties = converted.type === 'object' ? converted.properties ?? {} : undefined
  if (!isBag(properties)) {
    throw refuseStandard(vendor, 'is not an object schema', 'a form is named fields: describe an object, such as v.object({ name: v.string() }) or type({ name: "string" }).')
  }
  const entries = Object.entries(properties)
  if (entries.length === 0) throw refuseEmpty()
  const required = new Set(readList(converted, 'required').filter(name => typeof name === 'string'))
  const fields = entries.map(([name, node]): FormField<undefined> => ({ name, schema: undefined, read: attempt(() => describeJson(name, node, required.has(name), vendor)) }))
  return { version: 'standard', fields, schema, vendor, shape: schema, names: new Set(entries.map(([name]) => name)), wire: [] }
}
