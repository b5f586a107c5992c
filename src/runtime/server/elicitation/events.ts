import type { McpHook } from '../common/hooks'
import type { Question } from './question'
import type { ElicitationRun } from './run'

/**
 * A question went out, with the promise of its outcome. Once per question and round (legacy:
 * pushed; modern: queued for this round's `input_required`, where its promise never settles, or
 * answered at once from this round's `inputResponses`).
 */
export interface ElicitationAskedEvent {
  type: 'asked'
  run: ElicitationRun
  /** The question's key (the `inputRequests` key on modern). */
  key: string
  question: Question<unknown>
  outcome: Promise<unknown>
}

/**
 * The client answered a question: once per answer received, valid or not. On modern it comes
 * before the round's `asked` event of the same key (the answer is read while asking).
 */
export interface ElicitationAnsweredEvent {
  type: 'answered'
  run: ElicitationRun
  key: string
  question: Question<unknown>
  /** The client's answer as received (e.g. `{ action, content }`). */
  response: unknown
  /** Why the answer was refused; absent when it was valid. */
  issues?: string[]
}

/**
 * Legacy: an invalid answer's question is pushed again on the same wait (modern re-asks in its
 * next round's `input_required`, told by that round's `asked`).
 */
export interface ElicitationReaskedEvent {
  type: 'reasked'
  run: ElicitationRun
  key: string
  question: Question<unknown>
}

export type ElicitationEvent = ElicitationAskedEvent | ElicitationAnsweredEvent | ElicitationReaskedEvent

/**
 * Who watches the engine without the engine knowing it (the `mcp:question` hook's watcher,
 * tracing): listeners of the one hook shape, each asked whether it listens before an event is
 * built for it.
 */
const listeners = new Set<McpHook<ElicitationEvent>>()

/**
 * Calls `listener` for every elicitation event from now on, while its `listening()` says so.
 * Returns the function that stops it. Listeners observe: they cannot change a question or its
 * answer, and a listener that throws is logged, never passed on to the tool call.
 *
 * @example
 * ```ts
 * const stop = onElicitationEvent({
 *   listening: () => true,
 *   call: (event) => {
 *     if (event.type === 'answered' && event.issues) console.warn(event.key, event.issues)
 *   },
 * })
 * nitro.hooks.hook('close', stop)
 * ```
 */
export function onElicitationEvent(listener: McpHook<ElicitationEvent>): () => void {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

/**
 * Whether any listener listens now: asked before an event is built, so that an app with nobody
 * listening (no `mcp:question` hook, no tracing) builds no event per question.
 */
function anyListening(): boolean {
  if (listeners.size === 0) return false
  for (const listener of listeners) {
    if (listener.listening()) return true
  }
  return false
}

function emit(event: ElicitationEvent): void {
  for (const listener of listeners) {
    if (!listener.listening()) continue
    try {
      listener.call(event)
    }
    catch (error) {
      // An observer's bug must not fail the person's tool call.
      console.error('[nuxt-mcp-elicitation] an elicitation listener threw:', error)
    }
  }
}

/**
 * Whether an `asked` event's question really goes out to the client: always on legacy; on modern
 * only when it is left pending for this round's `input_required`. A modern round re-runs the
 * handler, so a question answered from this round's responses (or an earlier round's) is "asked"
 * again without going anywhere.
 *
 * @example
 * ```ts
 * onElicitationEvent({ listening: () => true, call: event => event.type === 'asked' && goesOut(event) && count() })
 * ```
 */
export function goesOut(event: ElicitationAskedEvent): boolean {
  if (event.run.page?.replay.pending.has(event.key)) return true
  return !event.run.modern || event.run.modern.pending.has(event.key)
}

/**
 * Tells the listeners that `question` went out. Costs one `listening()` per listener when nobody
 * listens (the app's `mcp:question` watcher is always registered, and says it listens only while
 * the app has an `mcp:question` hook), and builds no event.
 *
 * @example
 * ```ts
 * const outcome = askLegacy(run, key, question, options)
 * emitAsked(run, key, question, outcome)
 * ```
 */
export function emitAsked<R>(run: ElicitationRun, key: string, question: Question<R>, outcome: Promise<R>): void {
  if (anyListening()) emit({ type: 'asked', run, key, question, outcome })
}

/**
 * Tells the listeners that the client answered `key`; `issues` when the answer was refused.
 *
 * @example
 * ```ts
 * emitAnswered(run, key, question, response, verdict.ok ? undefined : verdict.issues)
 * ```
 */
export function emitAnswered<R>(run: ElicitationRun, key: string, question: Question<R>, response: unknown, issues?: string[]): void {
  if (anyListening()) emit({ type: 'answered', run, key, question, response, ...(issues && { issues }) })
}

/**
 * Tells the listeners that a legacy question is pushed again after an invalid answer.
 *
 * @example
 * ```ts
 * params = question.reask(problems).params
 * emitReasked(run, key, question)
 * ```
 */
export function emitReasked<R>(run: ElicitationRun, key: string, question: Question<R>): void {
  if (anyListening()) emit({ type: 'reasked', run, key, question })
}
