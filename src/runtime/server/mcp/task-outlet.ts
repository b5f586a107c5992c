import type { Server, ServerContext } from '@modelcontextprotocol/server'
import type { HandOut } from '../tasks/runner'
import type { TaskRecord } from '../tasks/record'
import { RELATED_TASK } from '../tasks/wire'

/** The `tasks/result` requests open right now, by task id: a legacy task's question rides the newest. */
const openResults = new Map<string, ServerContext[]>()
/** The tasks whose client has shown it holds them (any `tasks/*` request about them). */
const seen = new Set<string>()
/** Questions waiting for their task to be seen, by task id. */
const waiting = new Map<string, Set<() => void>>()

/**
 * Notes that the client holds the task: it asked about it. Until then a question is not pushed,
 * as a client that has not yet read the `tools/call` answer cannot tell which call it belongs to.
 *
 * @example
 * ```ts
 * noteTaskSeen(record.id) // in tasks/get
 * ```
 */
export function noteTaskSeen(taskId: string): void {
  seen.add(taskId)
  for (const wake of waiting.get(taskId) ?? []) wake()
  waiting.delete(taskId)
}

/** Forgets what was noted of a task (it expired). */
export function forgetTaskSeen(taskId: string): void {
  seen.delete(taskId)
  waiting.delete(taskId)
}

function whenSeen(taskId: string, signal: AbortSignal): Promise<void> {
  if (seen.has(taskId)) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const wake = () => {
      signal.removeEventListener('abort', abort)
      resolve()
    }
    const abort = () => {
      waiting.get(taskId)?.delete(wake)
      reject(signal.reason)
    }
    signal.addEventListener('abort', abort, { once: true })
    const set = waiting.get(taskId) ?? new Set()
    set.add(wake)
    waiting.set(taskId, set)
  })
}

/**
 * Holds `ctx` (a blocking `tasks/result`) as the way out for the task's questions until
 * `settled` resolves.
 *
 * @example
 * ```ts
 * await holdResultStream(record.id, ctx, runner.settled(record))
 * ```
 */
export async function holdResultStream(taskId: string, ctx: ServerContext, settled: Promise<void>): Promise<void> {
  const held = openResults.get(taskId) ?? []
  held.push(ctx)
  openResults.set(taskId, held)
  noteTaskSeen(taskId)
  const closed = new Promise<void>(resolve => ctx.mcpReq.signal.addEventListener('abort', () => resolve(), { once: true }))
  try {
    await Promise.race([settled, closed])
  }
  finally {
    const left = (openResults.get(taskId) ?? []).filter(open => open !== ctx)
    if (left.length > 0) openResults.set(taskId, left)
    else openResults.delete(taskId)
  }
}

function remainingLife(record: TaskRecord): number {
  return Math.max(1, record.createdAt + record.ttlMs - Date.now())
}

/**
 * How a legacy session's task hands its questions out (2025-11-25): tagged with the task
 * (`io.modelcontextprotocol/related-task`), once the client has shown it holds the task, on the
 * task's open `tasks/result` stream when the client holds one (the v1 SDK opens it on
 * `input_required`), else on the session's GET stream (clients that poll `tasks/get` and call
 * `tasks/result` only at the end). Each question goes out once, on one of them; it waits as
 * long as the task lives.
 *
 * @example
 * ```ts
 * const parked = runner.launch(record, legacyHandOut(server))
 * ```
 */
export function legacyHandOut(server: Server): HandOut {
  return async (record, question, signal) => {
    const params = { ...question.push.params, _meta: { [RELATED_TASK]: { taskId: record.id } } }
    await whenSeen(record.id, signal)
    const options = { signal, timeout: remainingLife(record) }
    const stream = openResults.get(record.id)?.at(-1)
    if (stream) return stream.mcpReq.send({ method: question.push.method, params }, { ...options, relatedRequestId: stream.mcpReq.id })
    return server.request({ method: question.push.method, params }, options)
  }
}
