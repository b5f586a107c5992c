import { refuseField } from './fields'
import type { McpElicitationError } from '../error'

/** The Zod constructs a form refuses, in Zod 4's vocabulary (the v3 reader maps onto it). */
export type RefusedKind =
  | 'object' | 'array' | 'record' | 'map' | 'set' | 'tuple' | 'union' | 'intersection'
  | 'date' | 'nullable' | 'null' | 'any' | 'unknown' | 'bigint' | 'transform'
  | 'non-string-enum' | 'non-string-literal' | 'empty-options' | 'not-zod' | 'too-deep'

const SIMPLE_TYPES = 'z.string(), z.number(), z.boolean(), z.enum([...]) or z.array(z.enum([...]))'

// [problem, suggestion] for each refusal: the message must say what to write instead.
const REASONS: Record<RefusedKind, readonly [string, string]> = {
  'object': ['nested objects are not allowed in a form', 'Flatten it into several top-level fields (e.g. "addressCity", "addressZip"), or ask with several forms.'],
  'intersection': ['intersections (nested objects) are not allowed in a form', 'Flatten it into several top-level fields, or ask with several forms.'],
  'array': ['the only arrays a form allows are multi-selects', 'Use z.array(z.enum([...])) for a multi-select, or a comma-separated z.string() the handler splits.'],
  'set': ['sets are not allowed in a form', 'Use z.array(z.enum([...])) for a multi-select.'],
  'record': ['records are not allowed in a form', 'Use one field per key, or a z.string() the handler parses.'],
  'map': ['maps are not allowed in a form', 'Use one field per key, or a z.string() the handler parses.'],
  'tuple': ['tuples are not allowed in a form', 'Use one field per position.'],
  'union': ['the only union a form allows is a union of string literals (a titled single select)', 'Use z.enum([...]), or z.union([z.literal("a").meta({ title: "A" }), z.literal("b").meta({ title: "B" })]).'],
  'date': ['z.date() has no form representation', 'Use z.iso.date() or z.iso.datetime() (an ISO string) and convert in the handler.'],
  'nullable': ['a form value cannot be null', 'Use .optional() instead of .nullable()/.nullish().'],
  'null': ['a form value cannot be null or undefined', 'Remove the field, or make it a real input with ' + SIMPLE_TYPES + '.'],
  'any': ['z.any() has no form type', 'Use ' + SIMPLE_TYPES + '.'],
  'unknown': ['this Zod type has no form type', 'Use ' + SIMPLE_TYPES + '.'],
  'bigint': ['bigint has no form representation', 'Use z.number().int(), or a z.string() the handler converts.'],
  'transform': ['a preprocess/transform decides the input type, so the form type cannot be determined', 'Declare the input type first and transform after it (e.g. z.string().transform(...)), or use z.coerce.number() and friends.'],
  'non-string-enum': ['form enum values must be strings', 'Use string values (e.g. z.enum(["1", "2"])) and convert in the handler.'],
  'non-string-literal': ['form literals must be strings', 'Use z.boolean() for a checkbox, or z.enum([...]) for choices.'],
  'empty-options': ['a select needs at least one option', 'Give z.enum([...]) or the literal union at least one string value.'],
  'not-zod': ['it is not a Zod schema', 'Use a Zod schema such as ' + SIMPLE_TYPES + '.'],
  'too-deep': ['its wrappers nest too deeply (a self-referencing z.lazy?)', 'Use a plain ' + SIMPLE_TYPES + '.'],
}

const KNOWN = new Set<string>(Object.keys(REASONS))

function isRefusedKind(kind: string): kind is RefusedKind {
  return KNOWN.has(kind)
}

/**
 * Builds the `invalid-schema` error for a Zod construct a form cannot hold. Unknown kinds (future
 * Zod types, `z.custom`, `z.file`, …) get the generic "no form type" reason.
 *
 * @example
 * ```ts
 * throw refuseKind('address', 'object') // names the field and suggests flattening it
 * ```
 */
export function refuseKind(field: string, kind: string): McpElicitationError {
  const [problem, suggestion] = REASONS[isRefusedKind(kind) ? kind : 'unknown']
  const shown = isRefusedKind(kind) ? problem : `z.${kind}() (${problem})`
  return refuseField(field, shown, suggestion)
}
