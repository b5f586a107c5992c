/**
 * The tasks wing's store (`tasks/store/`): what a task is (this file: one task as plain data),
 * where it is kept (the table in this process, the shared copy and the directory across
 * instances), the runner that runs its handler detached, the wire shapes of each era, a
 * tool's `execution` (whether it may run as a task), and the jobs' bindings (jobs.ts). It must not know `mcp/`: the server, the
 * registry, the definitions' handlers (`tasks/calls/` hands it a record and an outlet).
 */
import { isRecord } from '../../common/is-record'

/** A task's status, the same five words in both eras. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled'

/** The JSON-RPC error a failed task ends with: what the call would have answered. */
export interface TaskError {
  code: number
  message: string
  data?: unknown
}

/** A question a task waits on, as `inputRequests` lists it: the request a client would have received. */
export interface TaskQuestion {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list'
  params?: Record<string, unknown>
}

/** A `once()` step of a task: claimed (it may be running, or its instance died in it), or done with its result. */
export type TaskStep = { running: true } | { done: true, v?: unknown }

/**
 * Whom a task belongs to: only the same caller sees it; on legacy sessions the same session, and
 * for an anonymous caller on 2026-07-28 (no session) the same client address.
 */
export interface TaskOwner {
  /** The caller's principal; `''` for an anonymous caller. */
  principal: string
  /** The legacy session that created it; absent on modern requests. */
  sessionId?: string
  /**
   * An anonymous caller's client address, absent when there is a principal: what its tasks
   * count against (as legacy sessions count), and on 2026-07-28 what binds them to it.
   */
  address?: string
}

/**
 * An answer as a task keeps it: `q` the digest of the question it answered, `r` the client's answer.
 *
 * @example
 * ```ts
 * const kept: TaskAnswer = { q: question.digest, r: { action: 'accept', content: { ok: true } } }
 * if (kept.q === question.digest) return kept.r
 * ```
 */
export interface TaskAnswer {
  q: string
  r: unknown
}

/**
 * One task: what `tasks/get` answers from, in either era. Plain data, so a shared store can keep
 * it as JSON; what only the running instance has (the handler, its waiters) lives in the runner.
 */
export interface TaskRecord {
  id: string
  owner: TaskOwner
  /** The era of the request that created it: it decides how its questions are handed out. */
  era: 'legacy' | 'modern'
  /** The tool it runs. */
  tool: string
  status: TaskStatus
  statusMessage?: string
  /** Epoch milliseconds. */
  createdAt: number
  lastUpdatedAt: number
  /** How long the record is kept from its creation. */
  ttlMs: number
  pollIntervalMs: number
  /** The questions that wait for an answer, by their `inputRequests` key. */
  questions: Record<string, TaskQuestion>
  /** The digest of each waiting question, by the same key: what an answer to it is kept with. */
  digests: Record<string, string>
  /**
   * Every answer the client gave, by the key it was asked under, as it came (valid or not, each
   * within `tasks.maxAnswerBytes`), with the digest of its question: reused only for that question.
   * Emptied when the task ends.
   */
  answers: Record<string, TaskAnswer>
  /** The handler's `once()` steps: claimed before they run, their result once they ran. Emptied when the task ends. */
  steps: Record<string, TaskStep>
  /** What the call was: what another instance needs to run the handler again. Emptied (`{}`) when the task ends. */
  call: TaskCallRecord
  /** The `CallToolResult`, once `completed` (and, for a tool error on legacy, once `failed`). */
  result?: Record<string, unknown>
  /** The JSON-RPC error, once `failed` by one. */
  error?: TaskError
  /**
   * A job: a call of a client without tasks that ran past `mcp.tasks.detachAfterMs` and went on
   * as this task. Its client holds no task id and reads it by calling the tool again; its
   * questions are held in the record (never pushed to a session), on every instance that runs it.
   */
  job?: true
}

/**
 * What a task keeps of its call: the arguments as sent, as JSON text (an instance that takes the
 * task over parses them again: values a schema transformed need not be JSON), and the client's
 * capabilities. Each within a size (`tasks.maxArgumentBytes`, `tasks.maxCapabilitiesBytes`).
 *
 * @example
 * ```ts
 * const call: TaskCallRecord = { arguments: '{"build":"41"}', capabilities: { elicitation: {} } }
 * callArgumentsOf(call) // { build: '41' }
 * ```
 */
export interface TaskCallRecord {
  arguments: string
  capabilities?: Record<string, unknown>
}

/**
 * The arguments `call` kept as sent, parsed again (an instance that takes the task over runs the
 * tool's schema on them); a text that is not a JSON object reads as none, which that schema refuses.
 *
 * @example
 * ```ts
 * const parsed = await tool.args(callArgumentsOf(record.call))
 * ```
 */
export function callArgumentsOf(call: TaskCallRecord): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(call.arguments)
    return isRecord(value) ? value : {}
  }
  catch {
    return {}
  }
}

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled'])

/**
 * Whether `status` is final: a task in it never changes again (both eras' specs).
 *
 * @example
 * ```ts
 * isTerminal('input_required') // false
 * ```
 */
export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status)
}

/**
 * Moves `record` to `status`, unless it already ended: the one place transitions happen, so a
 * late answer, a late result or a second cancel cannot bring an ended task back. Returns whether
 * it moved. `keepAnswers`: an ended task keeps its answers (`nuxi dev`, for the DevTools tab).
 *
 * @example
 * ```ts
 * if (moveTask(record, 'cancelled', 'Cancelled by the client.')) controller.abort()
 * ```
 */
export function moveTask(record: TaskRecord, status: TaskStatus, statusMessage?: string, keepAnswers = false): boolean {
  if (isTerminal(record.status)) return false
  record.status = status
  // An ended task waits for nothing, and is never run again: its open questions go with it, and
  // what only a takeover reads (the call, the steps, the answers: up to the arguments' 256 KiB
  // and every answer's) is not kept for the rest of its ttl.
  if (isTerminal(status)) {
    record.questions = {}
    record.digests = {}
    if (!keepAnswers) record.answers = {}
    record.steps = {}
    record.call = { arguments: '{}' }
  }
  if (statusMessage === undefined) delete record.statusMessage
  else record.statusMessage = statusMessage
  record.lastUpdatedAt = Date.now()
  return true
}

/**
 * Whether `caller` may see `record`: the same principal; on legacy the same session; anonymous on
 * 2026-07-28, where there is no session, the same client address. Anyone else gets exactly what
 * an unknown id gets.
 *
 * @example
 * ```ts
 * const record = table.get(id)
 * if (!record || !ownsTask(record, caller)) throw unknownTask(id)
 * ```
 */
export function ownsTask(record: Pick<TaskRecord, 'owner'>, caller: TaskOwner): boolean {
  const { owner } = record
  if (owner.principal !== caller.principal || owner.sessionId !== caller.sessionId) return false
  // A legacy session's id is its anonymous client's credential; a modern request has no session.
  return owner.sessionId !== undefined || owner.address === caller.address
}

/**
 * Marks `key` answered by `response`, kept with the digest of the question it answered (when
 * that question is known), and no longer waiting.
 *
 * @example
 * ```ts
 * settleQuestion(record, 'q0', { action: 'accept', content: { ok: true } })
 * ```
 */
export function settleQuestion(record: TaskRecord, key: string, response: unknown, digest = record.digests[key]): void {
  if (digest !== undefined) record.answers[key] = { q: digest, r: response }
  delete record.questions[key]
  delete record.digests[key]
}
