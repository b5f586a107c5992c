import { McpElicitationError } from './error'
import { ownValue, setOwn } from '../common/own'
import { emitAnswered } from './events'
import { stayedInvalid } from './question'
import type { Question } from './question'
import type { ElicitationRun } from './run'
import { digestJson } from './state'

const schemaDigests = new WeakMap<object, string>()

/**
 * The digest that ties an answer to its question (a modern round's, and a task's). A form's
 * `requestedSchema` comes frozen from `toFormSchema`'s cache, so its (largest) part is digested
 * once, not on every round.
 *
 * @example
 * ```ts
 * const q = questionDigest(formQuestion('Deploy build-41?', requestedSchema, interpret))
 * ```
 */
export function questionDigest(question: Question<unknown>): string {
  const { requestedSchema, ...rest } = question.params
  if (typeof requestedSchema !== 'object' || requestedSchema === null || !Object.isFrozen(requestedSchema)) {
    return digestJson({ k: question.kind, p: question.params })
  }
  let schema = schemaDigests.get(requestedSchema)
  if (schema === undefined) schemaDigests.set(requestedSchema, schema = digestJson(requestedSchema))
  return digestJson({ k: question.kind, p: rest, s: schema })
}

/** Never settles: the round ends with `input_required` and this handler execution is dropped. */
function waitForNextRound<R>(): Promise<R> {
  return new Promise<R>(() => {})
}

/**
 * Answers one question in a modern (stateless) flow: from an earlier round's accepted answer,
 * from this round's `inputResponses` (only for a key the signed state says we asked, with the
 * same question), or by queueing it for the `input_required` that ends this round.
 *
 * An invalid answer is asked again with a message that says what was wrong, up to
 * `elicitation.maxAttempts` times, then fails with `'invalid-response'`.
 *
 * @example
 * ```ts
 * const result = await askModern(run, 'q0', formQuestion(message, requestedSchema, interpret))
 * ```
 */
export function askModern<R>(run: ElicitationRun, key: string, question: Question<R>): Promise<R> {
  const modern = run.modern!
  const q = questionDigest(question)
  const queued = modern.pending.get(key)
  if (queued && queued.q !== q) {
    throw new McpElicitationError('duplicate-key', `Two different questions use the key "${key}" in one handler. Give each call its own \`key\`.`)
  }
  const earlier = ownValue(modern.answers, key)
  if (earlier && earlier.q === q) {
    const verdict = question.interpret(earlier.r)
    if (verdict.ok) return Promise.resolve(verdict.result)
  }
  const asked = modern.state && ownValue(modern.state.asked, key)
  let attempt = 1
  let request = question.request
  if (asked && asked.q === q) {
    attempt = asked.n
    if (Object.hasOwn(modern.responses, key)) {
      const response = modern.responses[key]
      const verdict = question.interpret(response)
      emitAnswered(run, key, question, response, verdict.ok ? undefined : verdict.issues)
      if (verdict.ok) {
        setOwn(modern.answers, key, { q, r: response })
        return Promise.resolve(verdict.result)
      }
      if (asked.n >= run.config.elicitation.maxAttempts || !question.reask) throw stayedInvalid(question, asked.n, verdict.issues)
      attempt = asked.n + 1
      request = question.reask(verdict.issues.join('; ')).request
    }
  }
  modern.pending.set(key, { request, q, n: attempt, kind: question.kind })
  modern.onPending()
  return waitForNextRound<R>()
}
