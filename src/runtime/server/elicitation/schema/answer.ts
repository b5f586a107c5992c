import * as z3 from 'zod/v3'
import { safeParse, type $strict, type $ZodObject, type $ZodType, type output } from 'zod/v4/core'
import { issuePath, type McpStandardSchema, type StandardOutput } from '../../common/standard-schema'
import { McpElicitationError } from '../error'
import { fieldOfIssue, formatIssue, labelPath, showValue } from './answer-issues'
import { isBag, readForm, type Bag, type FormNode, type FormShape, type Zod3FormShape, type Zod4FormShape } from './read'

/**
 * Validation of a client's form answer (`content`) against the Zod shape that asked for it.
 * The shape is the source of truth for everything the wire schema could not express (exclusive
 * bounds, uuid/regex formats, `.refine()`), so every answer goes through it.
 */

/**
 * The parsed answer for a shape: `z.output` of `z.object(shape)`, with defaults applied and
 * transforms run. For a `z.object(...)` it is that object's output; for another Standard Schema
 * library's object, that library's inferred output.
 */
export type FormOutput<S> =
  S extends $ZodObject ? output<S>
    : S extends z3.ZodTypeAny ? z3.output<S>
      : S extends Zod4FormShape ? output<$ZodObject<S, $strict>>
        : S extends Zod3FormShape ? z3.output<z3.ZodObject<S>>
          : S extends McpStandardSchema ? StandardOutput<S>
            : never

/** The verdict of {@link parseFormAnswer}. */
export type FormAnswer<T> = { ok: true; value: T } | { ok: false; issues: string[] }

/** Form answers hold only these (spec): anything else is refused before Zod can coerce it. */
function isWireValue(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
    || (Array.isArray(value) && value.every(item => typeof item === 'string'))
}

/**
 * Reports fields the form does not have and values no form field can hold, before Zod runs (a
 * `z.coerce.string()` would otherwise turn an object into "[object Object]").
 */
function screenFields(content: Bag, fields: ReadonlySet<string>): { issues: string[]; rejected: Set<string> } {
  const issues: string[] = []
  const rejected = new Set<string>()
  for (const [key, value] of Object.entries(content)) {
    // An own key holding undefined (never in JSON, possible from JS callers) means "absent".
    const problem = !fields.has(key) ? `unexpected field '${key}'`
      : value !== undefined && !isWireValue(value) ? `${labelPath([key])}: expected a string, number, boolean or list of strings, received ${showValue(value)}`
        : undefined
    if (problem === undefined) continue
    issues.push(problem)
    rejected.add(key)
  }
  return { issues, rejected }
}

type Outcome = { success: true; data: unknown } | { success: false; issues: unknown[] }

function parse4(schema: $ZodType, value: unknown): Outcome {
  const result = safeParse(schema, value, { reportInput: false })
  return result.success ? { success: true, data: result.data } : { success: false, issues: result.error.issues }
}

function parse3(schema: z3.ZodTypeAny, value: unknown): Outcome {
  const result = schema.safeParse(value)
  return result.success ? { success: true, data: result.data } : { success: false, issues: result.error.issues }
}

function underField(name: string, issue: unknown): unknown {
  return isBag(issue) ? { ...issue, path: [name, ...(Array.isArray(issue.path) ? issue.path : [])] } : issue
}

function parseFields<T>(fields: readonly { name: string, schema: T }[], content: Bag, parse: (schema: T, value: unknown) => Outcome): Outcome {
  const data: Record<string, unknown> = {}
  const issues: unknown[] = []
  for (const { name, schema } of fields) {
    const result = parse(schema, content[name])
    if (!result.success) issues.push(...result.issues.map(issue => underField(name, issue)))
    // Like z.object: an absent optional field stays absent; a default fills it in.
    else if (result.data !== undefined || Object.hasOwn(content, name)) data[name] = result.data
  }
  return issues.length > 0 ? { success: false, issues } : { success: true, data }
}

/**
 * A raw shape is parsed field by field: the same rules and issues as `z.object(shape)`, without
 * compiling an object validator per shape (shapes written inline in the call are new objects
 * every time). A `z.object(...)` passed in is used as written (its own refinements run).
 */
function runZod(node: Exclude<FormNode<unknown>, { version: 'standard' }>, content: Bag): Outcome {
  if (node.version === 4) return node.object ? parse4(node.object, content) : parseFields(node.fields, content, parse4)
  return node.object ? parse3(node.object, content) : parseFields(node.fields, content, parse3)
}

/** What checking an answer's kept fields yields: the output, or readable issues. */
type Checked = { ok: true, data: unknown } | { ok: false, issues: string[] }

/** A field already refused by `screenFields` would be reported again as "missing". */
function isAboutKept(path: readonly unknown[], rejected: ReadonlySet<string>): boolean {
  return !rejected.has(String(path[0] ?? ''))
}

/**
 * The library's own check; its messages already read as sentences (and name the received value
 * when the library does), so they are only labelled with their field.
 */
function checkStandard(schema: McpStandardSchema, content: Bag, rejected: ReadonlySet<string>): Checked {
  const result = schema['~standard'].validate(content)
  if (result instanceof Promise) {
    // The answer is refused either way; the promise's own outcome must not go unhandled.
    result.catch(() => undefined)
    return { ok: false, issues: ['the form\'s schema checked the answer asynchronously, which forms do not support: use a synchronous schema and run asynchronous checks in the handler'] }
  }
  if (!result.issues) return { ok: true, data: result.value }
  const issues = result.issues.map(issue => ({ path: issuePath(issue), message: issue.message }))
    .filter(({ path }) => isAboutKept(path, rejected))
    .map(({ path, message }) => `${path.length > 0 ? labelPath(path) : 'the answer'}: ${message}`)
  return { ok: false, issues }
}

function checkKept(node: FormNode<unknown>, content: Bag, rejected: ReadonlySet<string>): Checked {
  if (node.version === 'standard') return checkStandard(node.schema, content, rejected)
  const result = runZod(node, content)
  if (result.success) return { ok: true, data: result.data }
  const issues = result.issues.filter(isBag)
    .filter(issue => isAboutKept(Array.isArray(issue.path) ? issue.path : [], rejected))
    .map(issue => formatIssue(issue, content))
  return { ok: false, issues }
}

/**
 * Validates a client's form answer against the shape: unknown fields, non-form values and every
 * Zod rule are reported as readable issues; on success the value has defaults applied. Never
 * throws for any content (a throwing or async refinement becomes an issue too).
 *
 * @throws McpElicitationError `invalid-schema` only when `shape` itself is not a form shape.
 * @example
 * ```ts
 * const shape = { age: z.number().int(), notify: z.boolean().default(true) }
 * parseFormAnswer(shape, { age: 30 }) // { ok: true, value: { age: 30, notify: true } }
 * parseFormAnswer(shape, { age: 'x', extra: 1 })
 * // { ok: false, issues: ["unexpected field 'extra'", '"age": expected a number, received "x"'] }
 * ```
 */
export function parseFormAnswer<S extends FormShape>(shape: S, content: unknown): FormAnswer<FormOutput<S>> {
  return parseAnswer(readForm(shape), content)
}

/**
 * {@link parseFormAnswer} for a form already read: what `askForm` uses, with the node it asked with.
 *
 * @example
 * ```ts
 * const form = readForm(shape)
 * const verdict = parseAnswer(form, content)
 * ```
 */
export function parseAnswer<S>(node: FormNode<S>, content: unknown): FormAnswer<FormOutput<S>> {
  if (!isBag(content)) return { ok: false, issues: [`the answer must be an object of field values, received ${showValue(content)}`] }
  try {
    // Unknown keys are rejected before the content reaches Zod, so a z.object's strip/loose/strict setting does not matter.
    const { issues, rejected } = screenFields(content, node.names)
    const kept = Object.fromEntries(Object.entries(content).filter(([key]) => !rejected.has(key)))
    const result = checkKept(node, kept, rejected)
    if (!result.ok) issues.push(...result.issues)
    if (issues.length > 0 || !result.ok) return { ok: false, issues: issues.length > 0 ? issues : ['the answer is invalid'] }
    // The node was read from this very shape, so its validator's output is the shape's output type.
    return { ok: true, value: result.data as FormOutput<S> }
  }
  catch (error) {
    return { ok: false, issues: [`the answer could not be validated: ${error instanceof Error ? error.message : String(error)}`] }
  }
}

/**
 * Builds the `invalid-response` error for a rejected answer: the message lists every problem with
 * its field, and `field` is set when they all concern one field.
 *
 * @example
 * ```ts
 * const verdict = parseFormAnswer(shape, content)
 * if (!verdict.ok) throw formAnswerError(verdict.issues)
 * // McpElicitationError: The answer does not match the form: "age": expected a number, received "x". …
 * ```
 */
export function formAnswerError(issues: string[]): McpElicitationError {
  const fields = [...new Set(issues.map(fieldOfIssue).filter(field => field !== undefined))]
  const listed = issues.length > 0 ? issues.join('; ') : 'no details'
  const which = fields.length > 0 ? ` (${fields.map(f => JSON.stringify(f)).join(', ')})` : ''
  const message = `The answer does not match the form: ${listed}. Ask again and tell the user what to correct${which}, `
    + `or relax the field's schema if such answers should be accepted.`
  return new McpElicitationError('invalid-response', message, { issues: [...issues], field: fields.length === 1 ? fields[0] : undefined })
}
