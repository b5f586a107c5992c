import type { ParkedQuestion } from '../../elicitation/run'
import { McpElicitationError } from '../../elicitation/error'

// How a task's questions and progress read: their keys, their status messages, their failures.

/** What the handler's `log()` and `progress()` do in a task: the status message says where it is. */
export function progressMessage(progress: number, total: number | undefined, message: string | undefined): string {
  return message ?? (total === undefined ? `Progress: ${progress}` : `Progress: ${progress} of ${total}`)
}

/**
 * The `inputRequests` key of `question`: its own key, `key~2` when asked again, and a free
 * suffix when taken: keys are unique over a task's lifetime (2026-07-28). Marks it in `used`.
 *
 * @example
 * ```ts
 * wireKeyOf(new Set(['name']), { key: 'name', attempt: 1, … }) // 'name~2'
 * ```
 */
export function wireKeyOf(used: Set<string>, question: ParkedQuestion): string {
  const base = question.attempt === 1 ? question.key : `${question.key}~${question.attempt}`
  let key = base
  for (let n = 2; used.has(key); n++) key = `${base}~${n}`
  used.add(key)
  return key
}

/** The status message of a task waiting on `question`. */
export function messageOf(question: ParkedQuestion): string {
  const message = question.push.params.message
  return typeof message === 'string' ? `Waiting for input: ${message}` : `Waiting for the client (${question.push.method})`
}

/** A failed hand-out as the handler sees every failed question: an `McpElicitationError` with its code. */
export function asElicitationError(error: unknown, signal: AbortSignal): McpElicitationError {
  if (error instanceof McpElicitationError) return error
  const message = error instanceof Error ? error.message : String(error)
  if (signal.aborted) return new McpElicitationError('cancelled', `The task ended while its question waited: ${message}`, { cause: error })
  return new McpElicitationError('protocol', `The question could not reach the client, or its answer could not come back: ${message}`, { cause: error })
}
