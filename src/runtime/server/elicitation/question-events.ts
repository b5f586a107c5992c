import type { McpEra } from '../common/context'
import { isRecord } from '../common/is-record'
import { McpElicitationError, type McpElicitationErrorCode } from './error'
import { goesOut, onElicitationEvent, type ElicitationEvent } from './events'
import type { QuestionKind } from './question'
import { fieldOfIssue } from './schema/answer-issues'

/**
 * What happened to a question:
 * - `asked`: it went out (legacy: pushed; modern: in this round's `input_required`; again after an
 *   invalid answer);
 * - `answered`: a valid answer (an accepted form, a sampling result, roots); `declined` / `cancelled`:
 *   the person said no or dismissed it;
 * - `invalid`: the answer did not match (asked again while attempts remain);
 * - `timed-out`: nobody answered in time (legacy); `failed`: the wait ended otherwise (the call
 *   was cancelled, the client answered with an error), `errorCode` says which.
 */
export type McpQuestionStage = 'asked' | 'answered' | 'declined' | 'cancelled' | 'invalid' | 'timed-out' | 'failed'

/** The payload of the `mcp:question` hook. Field names, never the values a person typed. */
export interface McpQuestionEvent {
  stage: McpQuestionStage
  /** The route of the endpoint the call came to. */
  endpoint: string
  era: McpEra
  principal?: string
  sessionId?: string
  /** The call that asked: `tools/call`, `resources/read` or `prompts/get`, and the definition's name. */
  call?: { method: string, name: string }
  /** The question's key within its call (the `inputRequests` key on modern). */
  key: string
  kind: QuestionKind
  /** `form` or `url` for an elicitation. */
  mode?: 'form' | 'url'
  /** A form's field names, as asked. */
  fields?: string[]
  /** The fields an invalid answer got wrong. */
  invalidFields?: string[]
  /** Why a `failed` wait ended. */
  errorCode?: McpElicitationErrorCode
}

function describe(event: ElicitationEvent): Omit<McpQuestionEvent, 'stage'> {
  const { scope } = event.run
  const { params, kind } = event.question
  const schema = isRecord(params.requestedSchema) && isRecord(params.requestedSchema.properties) ? params.requestedSchema.properties : undefined
  return {
    endpoint: scope.route,
    era: scope.era,
    ...(scope.principal !== undefined && { principal: scope.principal }),
    ...(scope.sessionId !== undefined && { sessionId: scope.sessionId }),
    ...(event.run.call && { call: event.run.call }),
    key: event.key,
    kind,
    ...(kind === 'elicit' && { mode: params.mode === 'url' ? 'url' : 'form' }),
    ...(schema && { fields: Object.keys(schema) }),
  }
}

/** The stage an answer puts its question in. */
function answeredStage(response: unknown): McpQuestionStage {
  const action = isRecord(response) ? response.action : undefined
  return action === 'decline' ? 'declined' : action === 'cancel' ? 'cancelled' : 'answered'
}

/**
 * Calls `notify` with a {@link McpQuestionEvent} for every move of every question, in both eras,
 * while `listening()` says someone wants them. Returns the function that stops watching.
 *
 * @example
 * ```ts
 * const stop = watchQuestions(() => true, event => console.info(event.stage, event.fields))
 * ```
 */
export function watchQuestions(listening: () => boolean, notify: (event: McpQuestionEvent) => void): () => void {
  return onElicitationEvent((event) => {
    if (!listening()) return
    const about = describe(event)
    if (event.type === 'reasked') return notify({ ...about, stage: 'asked' })
    if (event.type === 'answered') {
      if (!event.issues) return notify({ ...about, stage: answeredStage(event.response) })
      const invalidFields = [...new Set(event.issues.map(fieldOfIssue).filter(field => field !== undefined))]
      return notify({ ...about, stage: 'invalid', ...(invalidFields.length > 0 && { invalidFields }) })
    }
    if (!goesOut(event)) return
    notify({ ...about, stage: 'asked' })
    // A legacy wait ends in this process; a modern round's promise never settles (the retry asks again).
    if (!event.run.modern) {
      event.outcome.then(() => undefined, (error: unknown) => {
        if (!listening()) return
        const code = error instanceof McpElicitationError ? error.code : undefined
        // An invalid answer was already told as `invalid`.
        if (code === 'invalid-response') return
        notify({ ...about, stage: code === 'timeout' ? 'timed-out' : 'failed', ...(code && { errorCode: code }) })
      })
    }
  })
}
