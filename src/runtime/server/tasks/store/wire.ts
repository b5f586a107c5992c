import type { TaskRecord } from './record'

/** The 2026-07-28 extension's id, in `clientCapabilities.extensions` and `serverCapabilities.extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks'

/** The `_meta` key that ties a 2025-11-25 message to its task. */
export const RELATED_TASK = 'io.modelcontextprotocol/related-task'

function iso(ms: number): string {
  return new Date(ms).toISOString()
}

/**
 * A task as 2025-11-25 shows it (`Task`: `ttl`, `pollInterval`), in `CreateTaskResult.task`,
 * `tasks/get`, `tasks/list` and `tasks/cancel`.
 *
 * @example
 * ```ts
 * return { task: legacyTask(record), content: [] }
 * ```
 */
export function legacyTask(record: TaskRecord): Record<string, unknown> {
  return {
    taskId: record.id,
    status: record.status,
    ...(record.statusMessage !== undefined && { statusMessage: record.statusMessage }),
    createdAt: iso(record.createdAt),
    lastUpdatedAt: iso(record.lastUpdatedAt),
    ttl: record.ttlMs,
    pollInterval: record.pollIntervalMs,
  }
}

/**
 * A task's handle as 2026-07-28 creates it (`resultType: "task"`, flat): no result, error or
 * questions yet, whatever its status, and never a `requestState`.
 *
 * @example
 * ```ts
 * return createdTask(record)
 * ```
 */
export function createdTask(record: TaskRecord): Record<string, unknown> {
  return {
    resultType: 'task',
    taskId: record.id,
    status: record.status,
    ...(record.statusMessage !== undefined && { statusMessage: record.statusMessage }),
    createdAt: iso(record.createdAt),
    lastUpdatedAt: iso(record.lastUpdatedAt),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  }
}

/**
 * A task as 2026-07-28's `tasks/get` shows it (`DetailedTask`): its open questions while
 * `input_required`, its result once `completed`, its error once `failed`.
 *
 * @example
 * ```ts
 * return detailedTask(record)
 * ```
 */
export function detailedTask(record: TaskRecord): Record<string, unknown> {
  const { resultType: _created, ...task } = createdTask(record)
  if (record.status === 'input_required') return { ...task, inputRequests: { ...record.questions } }
  // The inlined result is a complete CallToolResult of its own (clients decode it as one).
  if (record.status === 'completed' && record.result) return { ...task, result: { ...record.result, resultType: 'complete' } }
  if (record.status === 'failed' && record.error) return { ...task, error: record.error }
  return task
}

/**
 * The `_meta` key of a job's state in a tool result (a call of a client without tasks that went
 * on as a task, `mcp.tasks.detachAfterMs`): never `structuredContent`, which a tool's
 * `outputSchema` governs and the SDK clients check.
 *
 * @example
 * ```ts
 * result._meta?.[JOB_META] // { taskId, status: 'working', … }
 * ```
 */
export const JOB_META = 'nuxt-mcp-elicitation/job'

/**
 * A job's state as its tool results carry it under {@link JOB_META}: the task's id, status,
 * message and poll interval, and while it waits its open questions (as 2026-07-28's
 * `inputRequests` lists them).
 *
 * @example
 * ```ts
 * const meta = { [JOB_META]: jobState(record) }
 * // { taskId: '4f0c…', status: 'working', statusMessage: 'Built (1/3)', pollIntervalMs: 1000, … }
 * ```
 */
export function jobState(record: TaskRecord): Record<string, unknown> {
  const { resultType: _created, ...task } = createdTask(record)
  if (record.status === 'input_required') return { ...task, inputRequests: { ...record.questions } }
  return task
}
