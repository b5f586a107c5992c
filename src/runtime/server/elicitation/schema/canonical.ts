import { $ZodDefault, globalRegistry } from 'zod/v4/core'
import type { $ZodType } from 'zod/v4/core'
import { isStandardSchema } from '../../common/standard-schema'
import { createIdentityNumbers } from './identity'
import type { FormShape } from './shape'
import { isZod4Schema, zod4Def } from './zod4'

/**
 * Structural sharing of form fields. The usual way to write a form is inline,
 * `form({ schema: { name: z.string().min(2) } })`, so every call (and every modern round) brings
 * brand-new Zod objects: every cache keyed by identity misses, the shape is converted and digested
 * again, and a waiting legacy question keeps its own copy alive.
 *
 * `canonicalShape()` maps each field to the first one seen with the same structure, and a shape
 * whose fields are all shared to one shape, so that work is done once. A field is shared only when
 * nothing can tell it apart from the first: its Zod definitions hold the same data, its registry
 * metadata (`.meta()`, `.describe()`) is equal, and every function in it (a `.refine()` check, a
 * `.transform()`, a custom error message, Zod's own helpers) is the very same function object.
 * Never shared, because they may hold per-call values a definition does not show: a field with an
 * inline function (a new closure per call), a `.superRefine()` / `.check()` (kept outside the
 * definition), and a `.prefault()` or a `.default()` below another wrapper (behind a getter, which
 * may call a function).
 *
 * A field whose outermost wrapper is `.default()` is shared by the value its default has when the
 * question is asked (read once, as the form shows it): the shared field holds that value as a
 * constant, so an answer that leaves the field out gets exactly what the person was shown, whoever
 * asked first. A default that is not plain JSON keeps the field apart.
 * Zod 3 shapes, `z.object()` schemas and other libraries' Standard Schema objects are returned as
 * they are.
 */

const idOf = createIdentityNumbers()
const fields = new Map<string, $ZodType>()
const shapes = new Map<string, FormShape>()
const resolved = new WeakMap<object, FormShape>()
// Distinct fields and shapes an app asks with are few; the bounds keep unusual apps from growing these forever.
const MAX_ENTRIES = 500
// Definitions deeper than any form field: `z.lazy()` cycles and exotic nesting are not shared.
const MAX_DEPTH = 12

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** The structure of any value found in a Zod definition, or `undefined` when it cannot be told apart safely. */
function fingerprintOf(value: unknown, depth: number): string | undefined {
  if (depth > MAX_DEPTH) return undefined
  switch (typeof value) {
    case 'string': return JSON.stringify(value)
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
  if (isZod4Schema(value)) return nodeFingerprint(value, depth)
  return isPlainObject(value) ? objectFingerprint(value, depth) : undefined
}

function nodeFingerprint(node: $ZodType, depth: number): string | undefined {
  const def = zod4Def(node)
  // `.superRefine()` and `.check()` keep their function on the check instance, not in its definition.
  if (def.check === 'custom' && typeof def.fn !== 'function') return undefined
  const shape = fingerprintOf(def, depth + 1)
  const meta = fingerprintOf(globalRegistry.get(node), depth + 1)
  return shape === undefined || meta === undefined ? undefined : `Z${shape}${meta}`
}

function listFingerprint(items: unknown[], depth: number): string | undefined {
  const parts: string[] = []
  for (const item of items) {
    const part = fingerprintOf(item, depth + 1)
    if (part === undefined) return undefined
    parts.push(part)
  }
  return `[${parts.join(',')}]`
}

function objectFingerprint(object: Record<string, unknown>, depth: number): string | undefined {
  const parts: string[] = []
  for (const key of Object.keys(object)) {
    // A getter (Zod's `.default()` value) may call a function on every read: never read one here.
    if (Object.getOwnPropertyDescriptor(object, key)?.get) return undefined
    const part = fingerprintOf(object[key], depth + 1)
    if (part === undefined) return undefined
    parts.push(`${JSON.stringify(key)}:${part}`)
  }
  return `{${parts.join(',')}}`
}

function remember<T>(map: Map<string, T>, key: string, value: T): T {
  map.set(key, value)
  if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value ?? '')
  return value
}

function isPlainJson(value: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value)
  if (Array.isArray(value)) return value.every(item => isPlainJson(item, depth + 1))
  return typeof value === 'object' && isPlainObject(value) && Object.values(value).every(item => isPlainJson(item, depth + 1))
}

/** The value a `.default()` has now, when it is plain JSON; reading it may call the user's function. */
function readJsonDefault(def: Record<string, unknown>): { value: unknown, json: string } | undefined {
  try {
    const value: unknown = def.defaultValue
    return isPlainJson(value) ? { value, json: JSON.stringify(value) } : undefined
  }
  catch {
    return undefined
  }
}

/**
 * A `.default()` field, shared by its inner field, its metadata and its default's value now. The
 * shared node is built here, with that value as a constant (cloned on each use, as Zod does).
 */
function canonicalDefault(field: $ZodType, def: Record<string, unknown>): $ZodType | undefined {
  const checks = def.checks
  if (Array.isArray(checks) && checks.length > 0) return undefined
  const meta = globalRegistry.get(field)
  // A registry id must stay unique, so a field that has one is not copied.
  if (meta && 'id' in meta) return undefined
  const metaKey = fingerprintOf(meta, 1)
  const inner = isZod4Schema(def.innerType) ? canonicalField(def.innerType) : undefined
  const value = readJsonDefault(def)
  if (!inner || !value || metaKey === undefined) return undefined
  const key = `D${idOf(inner)}:${value.json}${metaKey}`
  const known = fields.get(key)
  if (known) return known
  const constant = value.value
  const node = new $ZodDefault({
    type: 'default',
    innerType: inner,
    get defaultValue() {
      return structuredClone(constant)
    },
  })
  if (meta) globalRegistry.add(node, meta)
  return remember(fields, key, node)
}

/** The first field seen with the structure of `field`, or `undefined` when it cannot be shared. */
function canonicalField(field: $ZodType): $ZodType | undefined {
  const def = zod4Def(field)
  if (def.type === 'default') return canonicalDefault(field, def)
  const key = nodeFingerprint(field, 0)
  if (key === undefined) return undefined
  return fields.get(key) ?? remember(fields, key, field)
}

/**
 * `shape` with every field that can be shared replaced by the first field seen with its
 * structure; when all of them can, the first shape seen with those fields. Use the result for
 * everything: conversion, digests, parsing.
 *
 * @example
 * ```ts
 * const a = canonicalShape({ name: z.string().min(2) })
 * canonicalShape({ name: z.string().min(2) }) === a // true: same structure, new objects
 * canonicalShape({ name: z.string().min(3) }) === a // false
 * ```
 */
export function canonicalShape<S extends FormShape>(shape: S): S {
  // A z.object(), a Zod 3 or a malformed shape goes its usual way (and gets its usual errors).
  if (isZod4Schema(shape) || isStandardSchema(shape) || !isPlainObject(shape)) return shape
  // Each field of the result has the structure of the caller's field under the same name, so
  // the result has the caller's type.
  const known = resolved.get(shape)
  if (known) return known as S
  const shared: [string, $ZodType][] = []
  let allShared = true
  for (const [name, field] of Object.entries(shape)) {
    if (!isZod4Schema(field)) return shape
    const canonical = canonicalField(field)
    if (!canonical) allShared = false
    shared.push([name, canonical ?? field])
  }
  const key = allShared ? shared.map(([name, field]) => `${JSON.stringify(name)}:${idOf(field)}`).join(',') : undefined
  // fromEntries defines own properties, so a field named "__proto__" stays a field.
  const result = (key !== undefined ? shapes.get(key) : undefined) ?? Object.freeze(Object.fromEntries(shared))
  if (key !== undefined && !shapes.has(key)) remember(shapes, key, result)
  resolved.set(shape, result)
  return result as S
}
