import type { McpEra } from '../common/context'
import type { McpHook } from '../common/hooks'
import { isRecord } from '../common/is-record'
import { McpElicitationError, type McpElicitationErrorCode } from './error'
import { ownValue } from '../common/own'
import { goesOut, onElicitationEvent, type ElicitationAnsweredEvent, type ElicitationEvent } from './events'
import type { QuestionKind } from './question'
import type { ElicitationRun } from './run'
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

/**
 * The payload of the `mcp:question` hook (declared in hooks.ts). Field names, never the values a
 * person typed, unless the app opted in with `mcp.observe.answers` (then `content`, `issues` and a
 * URL-mode `url`).
 */
export interface McpQuestionEvent {
  stage: McpQuestionStage
  /**
   * Tells the handler runs apart: the same for every event of one legacy call (or task), and of
   * one modern round (each round runs the handler again, so every round has its own).
   */
  runId: number
  /** The route of the endpoint the call came to. */
  endpoint: string
  era: McpEra
  principal?: string
  /** The legacy session, as `mcp:call` tells it: a keyed hash of its id, never the id. */
  sessionTag?: string
  /** The call that asked: `tools/call`, `resources/read` or `prompts/get`, and the definition's name. */
  call?: { method: string, name: string }
  /** The question's key within its call (the `inputRequests` key on modern). */
  key: string
  kind: QuestionKind
  /**
   * How the question reaches the client: `push` (legacy, on the call's stream), `input-required`
   * (a modern round's answer, brought by the client's retry), `task` (parked with its task) or
   * `page` (the client cannot show it: it waits on the app's page, the call made again brings it).
   */
  via: 'push' | 'input-required' | 'task' | 'page'
  /** `form` or `url` for an elicitation. */
  mode?: 'form' | 'url'
  /** What the question says to the person (an elicitation's `message`), as the server wrote it. */
  message?: string
  /** A form's field names, as asked. */
  fields?: string[]
  /** The fields an invalid answer got wrong. */
  invalidFields?: string[]
  /** Why a `failed` wait ended. */
  errorCode?: McpElicitationErrorCode
  /**
   * Once answered (any stage but `asked`): milliseconds since the question went out. Modern:
   * since the round whose `input_required` asked it, so the time the person took.
   */
  waitedMs?: number
  /**
   * With `mcp.observe.answers` only: what the client sent (`answered`, `declined`, `cancelled`,
   * `invalid`), valid or not. Never set otherwise: it is what the person typed.
   */
  content?: unknown
  /** With `mcp.observe.answers` only: why an `invalid` answer was refused (the messages may quote it). */
  issues?: string[]
  /** With `mcp.observe.answers` only: a URL-mode question's URL (it may carry one-time state). */
  url?: string
}

/** What `mcp:question` carries beyond the facts of the call: `answers` adds what the person answered. */
export interface McpQuestionOptions {
  answers: boolean
}

/** Each run's id, handed out the first time one of its questions is told (only while someone listens). */
const runIds = new WeakMap<ElicitationRun, number>()
let lastRunId = 0
/** Legacy and tasks: when each question of a run first went out, by key (the wait is in this process). */
const askedAt = new WeakMap<ElicitationRun, Map<string, number>>()

function runIdOf(run: ElicitationRun): number {
  let id = runIds.get(run)
  if (id === undefined) {
    id = ++lastRunId
    runIds.set(run, id)
  }
  return id
}

/** Milliseconds since `key` went out: modern, since the round whose signed state says it asked. */
function waitedSince(run: ElicitationRun, key: string): number | undefined {
  const state = run.modern?.state
  const sent = state && ownValue(state.asked, key) ? state.exp - run.config.elicitation.stateTtlSeconds * 1000 : askedAt.get(run)?.get(key)
  return sent === undefined ? undefined : Math.max(0, Date.now() - sent)
}

function describe(event: ElicitationEvent, options: McpQuestionOptions): Omit<McpQuestionEvent, 'stage'> {
  const { scope } = event.run
  const { params, kind } = event.question
  const schema = isRecord(params.requestedSchema) && isRecord(params.requestedSchema.properties) ? params.requestedSchema.properties : undefined
  return {
    runId: runIdOf(event.run),
    endpoint: scope.route,
    era: scope.era,
    ...(scope.principal !== undefined && { principal: scope.principal }),
    ...(scope.sessionTag !== undefined && { sessionTag: scope.sessionTag }),
    ...(event.run.call && { call: event.run.call }),
    key: event.key,
    via: event.run.parked ? 'task' : event.run.page?.replay.pending.has(event.key) ? 'page' : event.run.modern ? 'input-required' : 'push',
    kind,
    ...(kind === 'elicit' && { mode: params.mode === 'url' ? 'url' : 'form' }),
    ...(typeof params.message === 'string' && { message: params.message }),
    ...(schema && { fields: Object.keys(schema) }),
    ...(options.answers && params.mode === 'url' && typeof params.url === 'string' && { url: params.url }),
  }
}

/** What an answer adds to its event: how long it took, and with `answers` what was sent and why it was refused. */
function answerFacts(event: ElicitationAnsweredEvent, options: McpQuestionOptions): Pick<McpQuestionEvent, 'waitedMs' | 'content' | 'issues'> {
  const waitedMs = waitedSince(event.run, event.key)
  const content = isRecord(event.response) ? event.response.content : undefined
  return {
    ...(waitedMs !== undefined && { waitedMs }),
    ...(options.answers && content !== undefined && { content }),
    ...(options.answers && event.issues && { issues: event.issues }),
  }
}

/** The stage an answer puts its question in. */
function answeredStage(response: unknown): McpQuestionStage {
  const action = isRecord(response) ? response.action : undefined
  return action === 'decline' ? 'declined' : action === 'cancel' ? 'cancelled' : 'answered'
}

/**
 * Calls `hook` (the app's `mcp:question`) with a {@link McpQuestionEvent} for every move of every
 * question, in both eras, while `hook.listening()` says someone wants them: nobody listening, the
 * engine builds no event for this watcher. What the person answered is in the events only with
 * `options.answers`. Returns the function that stops watching.
 *
 * @example
 * ```ts
 * const stop = watchQuestions({ listening: () => true, call: event => console.info(event.stage, event.fields) }, { answers: false })
 * ```
 */
export function watchQuestions(hook: McpHook<McpQuestionEvent>, options: McpQuestionOptions): () => void {
  const watch = (event: ElicitationEvent): void => {
    const about = describe(event, options)
    if (event.type === 'reasked') return hook.call({ ...about, stage: 'asked' })
    if (event.type === 'answered') {
      const facts = answerFacts(event, options)
      if (!event.issues) return hook.call({ ...about, ...facts, stage: answeredStage(event.response) })
      const invalidFields = [...new Set(event.issues.map(fieldOfIssue).filter(field => field !== undefined))]
      return hook.call({ ...about, ...facts, stage: 'invalid', ...(invalidFields.length > 0 && { invalidFields }) })
    }
    if (!goesOut(event)) return
    hook.call({ ...about, stage: 'asked' })
    // A legacy wait ends in this process; a modern round's or a page's promise never settles (the
    // retry, or the call made again, asks again).
    if (!event.run.modern && !event.run.page?.replay.pending.has(event.key)) {
      const times = askedAt.get(event.run) ?? new Map<string, number>()
      if (!times.has(event.key)) times.set(event.key, Date.now())
      askedAt.set(event.run, times)
      event.outcome.then(() => undefined, (error: unknown) => {
        if (!hook.listening()) return
        const code = error instanceof McpElicitationError ? error.code : undefined
        // An invalid answer was already told as `invalid`.
        if (code === 'invalid-response') return
        const waitedMs = waitedSince(event.run, event.key)
        hook.call({ ...about, stage: code === 'timeout' ? 'timed-out' : 'failed', ...(code && { errorCode: code }), ...(waitedMs !== undefined && { waitedMs }) })
      })
    }
  }
  return onElicitationEvent({ listening: hook.listening, call: watch })
}
