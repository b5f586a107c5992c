import { McpElicitationError } from './error'
import { ownValue, setOwn } from '../common/own'
import { emitAnswered } from './events'
import { stayedInvalid } from './question'
import type { Question } from './question'
import type { ElicitationRun, ReplayFlow } from './run'
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
  return askReplay(run, run.modern!, key, question)
}

/**
 * Answers one question of a flow that replays the handler each round (a modern run's, or a page
 * run's): the same rules whoever keeps the state.
 *
 * @example
 * ```ts
 * const result = await askReplay(run, run.page.replay, 'q0', question)
 * ```
 */
export function askReplay<R>(run: ElicitationRun, flow: ReplayFlow, key: string, question: Question<R>): Promise<R> {
  const q = questionDigest(question)
  const queued = flow.pending.get(key)
  if (queued && queued.q !== q) {
    throw new McpElicitationError('duplicate-key', `Two different questions use the key "${key}" in one handler. Give each call its own \`key\`.`)
  }
  const earlier = ownValue(flow.answers, key)
  if (earlier && earlier.q === q) {
    const verdict = question.interpret(earlier.r)
    if (verdict.ok) return Promise.resolve(verdict.result)
  }
  const asked = flow.state && ownValue(flow.state.asked, key)
  let attempt = 1
  let request = question.request
  if (asked && asked.q === q) {
    attempt = asked.n
    if (Object.hasOwn(flow.responses, key)) {
      const response = flow.responses[key]
      const verdict = question.interpret(response)
      emitAnswered(run, key, question, response, verdict.ok ? undefined : verdict.issues)
      if (verdict.ok) {
        setOwn(flow.answers, key, { q, r: response })
        return Promise.resolve(verdict.result)
      }
      if (asked.n >= run.config.elicitation.maxAttempts || !question.reask) throw stayedInvalid(question, asked.n, verdict.issues)
      attempt = asked.n + 1
      request = question.reask(verdict.issues.join('; ')).request
    }
  }
  flow.pending.set(key, { request, q, n: attempt, kind: question.kind, ...(question.consent && { consent: true }) })
  flow.onPending()
  return waitForNextRound<R>()
}
