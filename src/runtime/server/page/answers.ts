import { collectAnswer } from '../../chat/elicitation/values'
import type { McpFormValues } from '../../chat/elicitation/values'
import type { McpFormField } from '../../chat/elicitation/fields'
import { setOwn } from '../common/own'
import { PAGE_ACTION_FIELD, pageFieldName } from './names'
import { readPageQuestion } from './render'
import type { McpPageQuestion } from './render'

/**
 * Reads the question page's POST back into one answer per question, and checks it exactly as the
 * host's native form does (`collectAnswer`: the same conversions, rules and messages), since a
 * POST may come from anywhere, not only from the page the browser checked.
 */

/**
 * One question's answer, as the handler receives it.
 *
 * @example
 * ```ts
 * const response: McpPageResponse = { action: 'accept', content: { confirm: false } }
 * ```
 */
export interface McpPageResponse { action: 'accept' | 'decline' | 'cancel', content?: Record<string, unknown> }

/**
 * The verdict: an answer per question key, or why not with what was sent (to show the page again).
 *
 * @example
 * ```ts
 * const read: McpPageAnswers = readPageAnswers(questions, form)
 * if (!read.ok) return renderQuestionPage({ ...view, errors: read.errors, values: read.values })
 * ```
 */
export type McpPageAnswers =
  | { ok: true, responses: Record<string, McpPageResponse> }
  | { ok: false, errors: Record<string, Record<string, string>>, values: Record<string, Record<string, string | string[]>> }

/** A field's value as the form sent it, or a message when it cannot be one. */
function readInput(field: McpFormField, sent: string[]): { value: McpFormValues[string] | undefined } | { error: string } {
  if (field.kind === 'multiselect') return { value: sent }
  if (sent.length > 1) return { error: 'Send one value for this field.' }
  const [first] = sent
  if (field.kind !== 'boolean') return { value: first }
  // The checkbox sends `true` when ticked and nothing when not: nothing is "no" (`confirm()`).
  // `false` is read too, for a client that posts the form without a browser.
  if (first === undefined || first === 'false') return { value: false }
  return first === 'true' ? { value: true } : { error: 'Expected true or false.' }
}

/** What was sent for the fields of one question, by field name, to show the page again. */
function sentValues(fields: McpFormField[], question: number, form: URLSearchParams): Record<string, string | string[]> {
  const values: Record<string, string | string[]> = {}
  fields.forEach((field, index) => {
    const sent = form.getAll(pageFieldName(question, index))
    if (field.kind === 'multiselect') setOwn(values, field.name, sent)
    else if (sent[0] !== undefined) setOwn(values, field.name, sent[0])
  })
  return values
}

function readQuestion(question: McpPageQuestion, index: number, form: URLSearchParams): { response: McpPageResponse } | { errors: Record<string, string> } {
  const read = readPageQuestion(question)
  if (read.unreadable !== undefined) return { errors: { '': `This question cannot be answered here (${read.unreadable}): decline it.` } }
  if (question.mode === 'url') return { response: { action: 'accept' } }
  const values: McpFormValues = {}
  const errors: Record<string, string> = {}
  read.fields.forEach((field, fieldIndex) => {
    const input = readInput(field, form.getAll(pageFieldName(index, fieldIndex)))
    if ('error' in input) setOwn(errors, field.name, input.error)
    else if (input.value !== undefined) setOwn(values, field.name, input.value)
  })
  // The page reads a date-time as UTC (it has no script to learn the person's zone, and says so).
  const checked = collectAnswer(read.fields.filter(field => !Object.hasOwn(errors, field.name)), values, { timeZone: 'utc' })
  if (checked.ok && Object.keys(errors).length === 0) return { response: { action: 'accept', content: checked.content } }
  if (!checked.ok) for (const [name, message] of Object.entries(checked.errors)) setOwn(errors, name, message)
  return { errors }
}

/**
 * Reads the page's form (`application/x-www-form-urlencoded`, as `URLSearchParams`) against the
 * questions it was rendered from: `_action=decline` declines every question; `_action=accept` (or
 * none: a form sent without its button) answers each one, checked field by field. Fields the page
 * does not have (`_csrf`, anything extra) are ignored; the CSRF token is the route's to check.
 *
 * @example
 * ```ts
 * const read = readPageAnswers(record.questions, new URLSearchParams(await readRawBody(event)))
 * if (read.ok) await deliver(read.responses) // { ok: { action: 'accept', content: { confirm: false } } }
 * else html = renderQuestionPage({ ...view, errors: read.errors, values: read.values })
 * ```
 */
export function readPageAnswers(questions: McpPageQuestion[], form: URLSearchParams): McpPageAnswers {
  const action = form.get(PAGE_ACTION_FIELD) ?? 'accept'
  if (action === 'decline') {
    const responses: Record<string, McpPageResponse> = {}
    for (const question of questions) setOwn(responses, question.key, { action: 'decline' })
    return { ok: true, responses }
  }
  const responses: Record<string, McpPageResponse> = {}
  const errors: Record<string, Record<string, string>> = {}
  const values: Record<string, Record<string, string | string[]>> = {}
  questions.forEach((question, index) => {
    setOwn(values, question.key, sentValues(readPageQuestion(question).fields, index, form))
    if (action !== 'accept') {
      setOwn(errors, question.key, { '': `Unknown ${PAGE_ACTION_FIELD} "${action.slice(0, 40)}": send accept or decline.` })
      return
    }
    const read = readQuestion(question, index, form)
    if ('errors' in read) setOwn(errors, question.key, read.errors)
    else setOwn(responses, question.key, read.response)
  })
  return Object.keys(errors).length > 0 ? { ok: false, errors, values } : { ok: true, responses }
}
