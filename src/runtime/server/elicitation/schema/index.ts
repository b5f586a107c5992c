import { emitFields, type ElicitFormSchema } from './fields'
import { readForm, type FormNode, type FormShape } from './read'
import { findSensitiveField } from './sensitive'

/**
 * `elicitation/schema/`: a form declaration → a spec-exact MCP form-mode `requestedSchema`
 * (2025-11-25 `ElicitRequestFormParams.requestedSchema`), and a client's answer back through the
 * declaration's own validator. `read.ts` reads the declaration (a Zod 4 or `zod/v3` shape, a
 * `z.object`, or a Standard Schema library's object through its JSON Schema) once into one
 * neutral node, fingerprinted in the same pass so that equal inline shapes share it; everything
 * else works from that node: `fields.ts` (the one allowlist that decides the wire, `emitField`),
 * `sensitive.ts` (secrets belong in URL mode), `refusals.ts` (what is refused and the way out),
 * `revision.ts` (the form as an older revision can show it), `answer.ts` + `answer-issues.ts`
 * (answers parsed field by field, or by the library's own `validate`).
 *
 * Every property is built from an allowlist of keywords per spec variant, never by cleaning up
 * `z.toJSONSchema` output: whatever Zod adds in a future version cannot leak onto the wire.
 * Constraints the wire cannot express (exclusive number bounds, uuid/ipv4/regex formats,
 * `.refine()`, `.multipleOf()`) are left off the schema and enforced when the answer is parsed.
 * It must not know eras, runs, the SDK server or HTTP; it imports only `../error.ts` and `common/`.
 */

export type { FormShape, FormNode, Zod3FormShape, Zod4FormShape } from './read'
export { isZod4Schema, readForm } from './read'
export type * from './fields'
export { formAnswerError, parseAnswer, parseFormAnswer } from './answer'
export type { FormAnswer, FormOutput } from './answer'

/** Options of {@link toFormSchema}. */
export interface FormSchemaOptions {
  /**
   * Let fields that look like passwords, API keys, tokens or payment data through. Form mode MUST
   * NOT collect such data (use `elicit.url()`); set this only when the detection is wrong for a field.
   */
  allowSensitive?: boolean
}

/**
 * The wire schema of a read form, built once per node and `allowSensitive`, deeply frozen.
 *
 * @throws McpElicitationError `invalid-schema` naming the first field a form cannot hold, then the
 * first that looks like a secret (unless `allowSensitive`).
 * @example
 * ```ts
 * formSchemaOf(readForm({ name: z.string() }), false) // { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }
 * ```
 */
export function formSchemaOf(node: FormNode, allowSensitive: boolean): ElicitFormSchema {
  const slot = allowSensitive ? 1 : 0
  const known = node.wire[slot]
  if (known) return known
  const fields = emitFields(node.fields)
  if (!allowSensitive) {
    const refusal = findSensitiveField(fields)
    if (refusal) throw refusal
  }
  // fromEntries defines own properties, so a field named "__proto__" stays a field.
  const properties = Object.fromEntries(fields.map(([name, wire]) => [name, wire]))
  const required = fields.filter(([, , needed]) => needed).map(([name]) => name)
  // Zod's own required list would include defaulted fields; ours follows input optionality, and is
  // omitted when empty because some clients reject `required: []`.
  const schema: ElicitFormSchema = required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties }
  Object.freeze(properties)
  Object.freeze(required)
  Object.freeze(schema)
  node.wire[slot] = schema
  return schema
}

/**
 * Converts a form declaration into a spec-exact form-mode `requestedSchema`. Results are cached
 * and deeply frozen: share them, do not mutate them (and do not mutate a shape object after its
 * first use).
 *
 * @throws McpElicitationError `invalid-schema` naming the field and the alternative, for anything a
 * form cannot hold (nested objects, non-enum arrays, other unions, dates, nullable, secrets, …).
 * @example
 * ```ts
 * toFormSchema({ channel: z.enum(['email', 'sms']), notify: z.boolean().default(true) })
 * // { type: 'object', properties: { channel: { type: 'string', enum: ['email', 'sms'] },
 * //   notify: { type: 'boolean', default: true } }, required: ['channel'] }
 * ```
 */
export function toFormSchema(shape: FormShape, options: FormSchemaOptions = {}): ElicitFormSchema {
  return formSchemaOf(readForm(shape), options.allowSensitive === true)
}
