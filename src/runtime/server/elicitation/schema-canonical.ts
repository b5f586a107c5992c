import { globalRegistry } from 'zod/v4/core'
import type { FormShape } from './schema-shape'
import { isZod4Schema } from './schema-zod4'

/**
 * Structural sharing of form shapes. The usual way to write a form is inline,
 * `form({ schema: { name: z.string().min(2) } })`, so every call (and every modern round) brings
 * brand-new Zod objects: every cache keyed by identity misses, the shape is converted, digested and
 * compiled into a parser again, and a waiting legacy question keeps its own copy alive.
 *
 * `canonicalShape()` maps a shape to the first one seen with the same structure, so all of that is
 * done once. Two shapes share only when nothing can tell them apart: their Zod definitions hold the
 * same data, their registry metadata (`.meta()`, `.describe()`) is equal, and every function in
 * them (a `.refine()` check, a `.transform()`, Zod's own helpers) is the very same function object.
 * An inline `.refine(v => ...)` is a new closure per call, so such a shape is never shared: it
 * may capture per-call values. Zod 3 shapes and `z.object()` schemas are returned as they are.
 */

const functionIds = new WeakMap<object, number>()
let nextFunctionId = 0
const canonical = new Map<string, FormShape>()
// Distinct shapes an app asks with are few; the bound keeps unusual apps from growing this forever.
const MAX_SHAPES = 200
// Definitions deeper than any form field: `z.lazy()` cycles and exotic nesting are not shared.
const MAX_DEPTH = 12

function idOfFunction(fn: object): number {
  let id = functionIds.get(fn)
  if (id === undefined) functionIds.set(fn, id = nextFunctionId++)
  return id
}

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
    case 'function': return `f${idOfFunction(value)}`
    case 'symbol': return undefined
  }
  // Only objects are left (and null); the switch above returned for every other kind.
  if (typeof value !== 'object' || value === null) return value === null ? 'null' : undefined
  if (value instanceof RegExp) return `/${value.source}/${value.flags}`
  if (Array.isArray(value)) return listFingerprint(value, depth)
  if (isZod4Schema(value)) {
    const def = fingerprintOf(value._zod.def, depth + 1)
    const meta = fingerprintOf(globalRegistry.get(value), depth + 1)
    return def === undefined || meta === undefined ? undefined : `Z${def}${meta}`
  }
  return isPlainObject(value) ? objectFingerprint(value, depth) : undefined
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
  // Key order is part of the structure (it is the form's field order).
  for (const key of Object.keys(object)) {
    // Reads getters too: Zod keeps `.default()` values behind one.
    const part = fingerprintOf(object[key], depth + 1)
    if (part === undefined) return undefined
    parts.push(`${JSON.stringify(key)}:${part}`)
  }
  return `{${parts.join(',')}}`
}

/**
 * The first shape seen with the same structure as `shape`, or `shape` itself (when it is the
 * first, or cannot be shared). Use the result for everything: conversion, digests, parsing.
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
  if (isZod4Schema(shape) || !isPlainObject(shape) || !Object.values(shape).every(isZod4Schema)) return shape
  const key = objectFingerprint(shape, 0)
  if (key === undefined) return shape
  const seen = canonical.get(key)
  // Same key means same structure, so the stored shape has the caller's type too.
  if (seen) return seen as S
  canonical.set(key, shape)
  if (canonical.size > MAX_SHAPES) canonical.delete(canonical.keys().next().value ?? '')
  return shape
}
