import type { Question } from './question'
import type { ElicitationRun } from './run'

/**
 * A question a handler asked, and the promise of its outcome. Emitted once per question and
 * round, after the question went out (legacy: pushed; modern: queued for this round's
 * `input_required`, where its promise never settles).
 */
export interface ElicitationAskedEvent {
  run: ElicitationRun
  /** The question's key (the `inputRequests` key on modern). */
  key: string
  question: Question<unknown>
  outcome: Promise<unknown>
}

/** Something that watches the engine without the engine knowing it (the DevTools recorder). */
export type ElicitationListener = (event: ElicitationAskedEvent) => void

const listeners = new Set<ElicitationListener>()

/**
 * Calls `listener` for every question asked from now on. Returns the function that stops it.
 * Listeners observe: they must not throw, and they cannot change a question or its answer.
 *
 * @example
 * ```ts
 * const stop = onElicitationAsked(({ key, outcome }) => outcome.then(value => console.log(key, value), () => {}))
 * nitro.hooks.hook('close', stop)
 * ```
 */
export function onElicitationAsked(listener: ElicitationListener): () => void {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

/**
 * Tells the listeners about a question; returns `outcome` unchanged. Costs one size check when
 * nobody listens, which is always the case in production.
 *
 * @example
 * ```ts
 * return emitElicitationAsked(run, key, question, askLegacy(run, question, options))
 * ```
 */
export function emitElicitationAsked<R>(run: ElicitationRun, key: string, question: Question<R>, outcome: Promise<R>): Promise<R> {
  if (listeners.size === 0) return outcome
  const event: ElicitationAskedEvent = { run, key, question, outcome }
  for (const listener of listeners) {
    try {
      listener(event)
    }
    catch (error) {
      // An observer's bug must not fail the person's tool call.
      console.error('[nuxt-mcp-elicitation] an elicitation listener threw:', error)
    }
  }
  return outcome
}
