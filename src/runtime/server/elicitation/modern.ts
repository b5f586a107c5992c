import { inputRequired } from '@modelcontextprotocol/server'
import type { ElicitRequestFormParams, ElicitRequestURLParams, ElicitResult, InputRequest } from '@modelcontextprotocol/server'
import { McpElicitationError } from './error'
import type { ElicitationRun } from './run'
import { asElicitResult } from './responses'
import { digestJson } from './state'

/** What checking an answer against the question yields. */
export type Verdict<R> = { ok: true, result: R } | { ok: false, issues: string[] }

/** A question as asked on the modern wire (URL mode carries no `elicitationId` there). */
export type QuestionParams =
  | { mode: 'form', message: string, requestedSchema: ElicitRequestFormParams['requestedSchema'] }
  | { mode: 'url', message: string, url: ElicitRequestURLParams['url'] }

function toInputRequest(params: QuestionParams): InputRequest {
  return params.mode === 'form'
    ? inputRequired.elicit({ message: params.message, requestedSchema: params.requestedSchema })
    : inputRequired.elicitUrl({ message: params.message, url: params.url })
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
 * const result = await askModern(run, 'q0', { mode: 'form', message, requestedSchema }, r => interpretForm(shape, r))
 * ```
 */
export function askModern<R>(run: ElicitationRun, key: string, params: QuestionParams, interpret: (response: ElicitResult) => Verdict<R>): Promise<R> {
  const modern = run.modern!
  const q = digestJson(params)
  const queued = modern.pending.get(key)
  if (queued && queued.q !== q) {
    throw new McpElicitationError('duplicate-key', `Two different elicitations use the key "${key}" in one handler. Give each \`form()\`/\`url()\` call its own \`key\`.`)
  }
  const earlier = modern.answers[key]
  if (earlier && earlier.q === q) {
    const verdict = interpret(asElicitResult(earlier.r))
    if (verdict.ok) return Promise.resolve(verdict.result)
  }
  const asked = modern.state?.asked[key]
  let attempt = 1
  let question = params
  if (asked && asked.q === q) {
    attempt = asked.n
    if (key in modern.responses) {
      const verdict = interpret(asElicitResult(modern.responses[key]))
      if (verdict.ok) {
        modern.answers[key] = { q, r: modern.responses[key] }
        return Promise.resolve(verdict.result)
      }
      if (asked.n >= run.config.elicitation.maxAttempts) {
        throw new McpElicitationError('invalid-response', `The answer to "${params.message}" was invalid ${asked.n} times: ${verdict.issues.join('; ')}.`, { issues: verdict.issues })
      }
      attempt = asked.n + 1
      question = { ...params, message: `${params.message}\n\nPlease correct your answer: ${verdict.issues.join('; ')}.` }
    }
  }
  modern.pending.set(key, { request: toInputRequest(question), q, n: attempt })
  modern.onPending()
  return waitForNextRound<R>()
}
