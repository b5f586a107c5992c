import type { Server, ServerContext } from '@modelcontextprotocol/server'
import type { TaskOutlet } from '../store/runner'
import type { TaskRunner } from '../store/runner'
import type { TaskRecord } from '../store/record'
import { legacyTask, RELATED_TASK } from '../store/wire'
import { QUESTION_NOTE } from '../store/question-note'
import type { QuestionNote } from '../store/question-note'
import { isRecord } from '../../common/is-record'

/** The `tasks/result` requests open right now, by task id: a legacy task's question rides the newest. */
const openResults = new Map<string, ServerContext[]>()
/** Questions waiting for a task's `tasks/result` to open, by task id. */
const resultWaiters = new Map<string, Set<(ctx: ServerContext) => void>>()

/**
 * Holds `ctx` (a blocking `tasks/result`) as the way out for the task's questions until
 * `settled` resolves.
 *
 * @example
 * ```ts
 * await holdResultStream(record.id, ctx, tasks.settled(found, caller, ctx.mcpReq.signal))
 * ```
 */
export async function holdResultStream(taskId: string, ctx: ServerContext, settled: Promise<unknown>): Promise<void> {
  const held = openResults.get(taskId) ?? []
  held.push(ctx)
  openResults.set(taskId, held)
  for (const wake of resultWaiters.get(taskId) ?? []) wake(ctx)
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

/** The task's newest open `tasks/result`, or the next to open within `ms`; `undefined` when none does. */
function resultStream(taskId: string, ms: number, signal: AbortSignal): Promise<ServerContext | undefined> {
  const open = openResults.get(taskId)?.at(-1)
  if (open || signal.aborted) return Promise.resolve(open)
  return new Promise((resolve) => {
    const waiters = resultWaiters.get(taskId) ?? new Set()
    resultWaiters.set(taskId, waiters)
    const done = (ctx?: ServerContext) => {
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
      waiters.delete(done)
      if (waiters.size === 0) resultWaiters.delete(taskId)
      resolve(ctx)
    }
    const onAbort = () => done()
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', onAbort, { once: true })
    waiters.add(done)
  })
}

function remainingLife(record: TaskRecord): number {
  return Math.max(1, record.createdAt + record.ttlMs - Date.now())
}

/**
 * How a legacy session's task reaches it (2025-11-25), everything tagged with the task
 * (`io.modelcontextprotocol/related-task`). A question goes out once the client has shown it
 * holds the task, on the task's `tasks/result` stream when the client holds one or opens one
 * within two poll intervals (the v1 SDK opens it on `input_required`), else on the session's GET
 * stream (clients that poll `tasks/get` and call `tasks/result` only at the end); each goes out
 * once, on one of them, and waits as long as the task lives. A log line goes out as
 * `notifications/message` on the GET stream, at the level the session set (`logging/setLevel`),
 * like any log line not tied to an open request; a change of status as
 * `notifications/tasks/status` (the task as `tasks/get` gives it).
 *
 * @example
 * ```ts
 * const parked = runner.launch(record, legacyOutlet(server, runner))
 * ```
 */
export function legacyOutlet(server: Server, runner: TaskRunner): TaskOutlet {
  return {
    ask: async (record, question, signal) => {
      // The note tells the session's transport which question this is, and goes no further.
      const note: QuestionNote = { taskId: record.id, key: question.wireKey, q: question.digest, expiresAt: record.createdAt + record.ttlMs }
      const params = { ...question.push.params, _meta: { ...(isRecord(question.push.params._meta) && question.push.params._meta), [RELATED_TASK]: { taskId: record.id }, [QUESTION_NOTE]: note } }
      // A client that has not read the tools/call answer yet cannot tell which call the question belongs to.
      await runner.seen.when(record.id, signal)
      // A client that reads `input_required` opens tasks/result right after (the v1 SDK does), at
      // its next poll: within a poll interval of the question, plus that request's own way here.
      // The question waits for it up to two intervals and rides it, from this instance, rather
      // than the session's GET stream, which may be held by another instance or be reconnecting
      // (the chaos run lost questions that way while an instance was down; with one interval it
      // lost the race against the v1 SDK's next poll by a few milliseconds).
      const stream = await resultStream(record.id, 2 * record.pollIntervalMs, signal)
      const options = { signal, timeout: remainingLife(record) }
      if (stream) return stream.mcpReq.send({ method: question.push.method, params }, { ...options, relatedRequestId: stream.mcpReq.id })
      return server.request({ method: question.push.method, params }, options)
    },
    log: (record, level, data, logger) => server.sendLoggingMessage({ level, data, ...(logger !== undefined && { logger }), _meta: { [RELATED_TASK]: { taskId: record.id } } }, record.owner.sessionId),
    status: record => server.notification({ method: 'notifications/tasks/status', params: legacyTask(record) }),
  }
}
