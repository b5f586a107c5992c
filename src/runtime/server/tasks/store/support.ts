import { MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'
import type { Server } from '@modelcontextprotocol/server'
import type { McpEra } from '../../common/context'
import { isRecord } from '../../common/is-record'
import { TASKS_EXTENSION } from './wire'

/** Whether a tool may run as a task: the spec's own words (`execution.taskSupport`). */
export type McpTaskSupport = 'forbidden' | 'optional' | 'required'

/** A tool's `execution`: whether it runs as a task, and where its task begins. */
export interface McpToolExecution {
  /**
   * `'optional'`: a task when the client asks for one (2025-11-25 `params.task`, or a 2026-07-28
   * client that declared the tasks extension); `'required'`: only as a task. Default `'forbidden'`.
   */
  taskSupport?: McpTaskSupport
  /**
   * `'at-once'` (default): the task exists before the handler runs. `'on-begin'`: the handler's
   * questions go through the ordinary call until it calls `await useMcpTask().begin()`; the
   * task begins there. A handler that ends before `begin()` answers the call directly
   * (2026-07-28) or as a task already completed (2025-11-25, which asked for a task).
   */
  taskStart?: 'at-once' | 'on-begin'
}

/** How one `tools/call` runs: as an ordinary call, or as a task (and, legacy, the `ttl` asked). */
export type CallMode = { task: false } | { task: true, ttlMs?: number }

function declaresTasksExtension(server: Server): boolean {
  const extensions = server.getClientCapabilities()?.extensions
  return isRecord(extensions) && isRecord(extensions[TASKS_EXTENSION])
}

/**
 * Decides whether a call runs as a task, or refuses it with the error each era's spec names:
 * 2026-07-28 answers a `required` tool called by a client without the tasks extension with
 * `-32021` (naming the extension); 2025-11-25 answers a `required` tool called without
 * `params.task`, or a `forbidden` one called with it, with `-32601`.
 *
 * @example
 * ```ts
 * const mode = callModeOf(server, 'modern', 'deploy', tool.definition.execution, request.params)
 * if (mode.task) return startTask(...)
 * ```
 */
export function callModeOf(server: Server, era: McpEra, name: string, execution: McpToolExecution | undefined, params: Record<string, unknown>): CallMode {
  const support = execution?.taskSupport ?? 'forbidden'
  if (era === 'modern') {
    // The extension ignores 2025-11-25's `params.task` (the server alone decides).
    if (support === 'forbidden') return { task: false }
    if (!declaresTasksExtension(server)) {
      if (support === 'optional') return { task: false }
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
        `The tool "${name}" runs only as a task (execution.taskSupport: 'required'), and this request did not declare the tasks extension. Declare "${TASKS_EXTENSION}" in the request's clientCapabilities.extensions.`,
      )
    }
    return { task: true }
  }
  const asked = params.task
  if (asked === undefined) {
    if (support !== 'required') return { task: false }
    throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `The tool "${name}" runs only as a task (execution.taskSupport: 'required'): call it with params.task (e.g. { task: { ttl: 60000 } }), as the server's tasks capability says.`)
  }
  if (support === 'forbidden') {
    throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `The tool "${name}" does not run as a task (its execution.taskSupport is 'forbidden'): call it without params.task.`)
  }
  const ttl = isRecord(asked) ? asked.ttl : undefined
  return typeof ttl === 'number' && ttl > 0 ? { task: true, ttlMs: ttl } : { task: true }
}

/**
 * How a call runs where the build has no task runtime or `mcp.tasks.background` is off (Workers,
 * where a request cannot outlive its response): `optional` tools inline, `required` ones refused
 * naming the platform.
 *
 * @example
 * ```ts
 * const mode = deps.tasks ? deps.tasks.modeOf(...) : inlineModeOf(tool.name, tool.definition.execution)
 * ```
 */
export function inlineModeOf(name: string, execution: McpToolExecution | undefined): CallMode {
  if (execution?.taskSupport !== 'required') return { task: false }
  throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `The tool "${name}" runs only as a task, and tasks cannot run here (mcp.tasks.background is off, as on Cloudflare Workers, where a request cannot outlive its response). Make it taskSupport: 'optional', or deploy where a process lives on.`)
}

/**
 * What `tools/list` shows of a tool's `execution`: its `taskSupport` only (`taskStart` is the
 * module's, not the wire's). The SDK drops it on 2026-07-28, whose tools have no such field.
 *
 * @example
 * ```ts
 * listedExecution({ taskSupport: 'optional', taskStart: 'on-begin' }) // { taskSupport: 'optional' }
 * ```
 */
export function listedExecution(execution: McpToolExecution | undefined): { taskSupport: McpTaskSupport } | undefined {
  return execution?.taskSupport ? { taskSupport: execution.taskSupport } : undefined
}
