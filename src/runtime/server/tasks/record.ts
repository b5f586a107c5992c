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

/** Whom a task belongs to: only the same caller (and, on legacy sessions, the same session) sees it. */
export interface TaskOwner {
  /** The caller's principal; `''` for an anonymous caller. */
  principal: string
  /** The legacy session that created it; absent on modern requests. */
  sessionId?: string
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
  /** Every answer the client gave, by the key it was asked under, as it came (valid or not). */
  answers: Record<string, unknown>
  /** The handler's `once()` steps: claimed before they run, their result once they ran. */
  steps: Record<string, TaskStep>
  /** What the call was: what another instance needs to run the handler again (2026-07-28). */
  call: { arguments: Record<string, unknown>, capabilities?: Record<string, unknown> }
  /** The `CallToolResult`, once `completed` (and, for a tool error on legacy, once `failed`). */
  result?: Record<string, unknown>
  /** The JSON-RPC error, once `failed` by one. */
  error?: TaskError
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
 * it moved.
 *
 * @example
 * ```ts
 * if (moveTask(record, 'cancelled', 'Cancelled by the client.')) controller.abort()
 * ```
 */
export function moveTask(record: TaskRecord, status: TaskStatus, statusMessage?: string): boolean {
  if (isTerminal(record.status)) return false
  record.status = status
  // An ended task waits for nothing: its open questions go with it.
  if (isTerminal(status)) record.questions = {}
  if (statusMessage === undefined) delete record.statusMessage
  else record.statusMessage = statusMessage
  record.lastUpdatedAt = Date.now()
  return true
}

/**
 * Whether `caller` may see `record`: the same principal, and on legacy the same session. Anyone
 * else gets exactly what an unknown id gets.
 *
 * @example
 * ```ts
 * const record = table.get(id)
 * if (!record || !ownsTask(record, caller)) throw unknownTask(id)
 * ```
 */
export function ownsTask(record: TaskRecord, caller: TaskOwner): boolean {
  return record.owner.principal === caller.principal && record.owner.sessionId === caller.sessionId
}
