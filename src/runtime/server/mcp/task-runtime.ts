import type { CallToolResult, InputRequiredResult, Server, ServerContext } from '@modelcontextprotocol/server'
import type { McpEra, McpRequestScope } from '../common/context'
import { TaskRunner } from '../tasks/runner'
import { TaskTable } from '../tasks/table'
import { TaskDirectory } from '../tasks/directory'
import { SharedTasks } from '../tasks/shared-tasks'
import type { McpSharedState } from '../cluster/shared-state'
import type { TaskLimits } from '../tasks/table'
import type { TaskRecord, TaskStatus } from '../tasks/record'
import { callAsTask } from './task-calls'
import type { TaskCall } from './task-calls'
import { installLegacyTaskHandlers, installModernTaskHandlers } from './tasks'
import { callModeOf } from './task-support'
import { resumeTask } from './task-resume'
import type { ResumeDeps } from './task-resume'
import type { CallMode, McpToolExecution } from './task-support'

/** How an endpoint's task runtime is made. */
export interface TaskRuntimeOptions {
  /** Tell each transition in the console (`nuxi dev`). */
  announce?: boolean
  /** An ended task keeps its answers (`nuxi dev`, for the DevTools tab); elsewhere they go when it ends. */
  keepEndedAnswers?: boolean
  /** The state several instances share (`NUXT_MCP_REDIS_URL`): tasks then live there too. */
  shared?: Promise<McpSharedState>
}

/**
 * An endpoint's tasks, as the rest of the server sees them: the `tasks/*` methods to install on
 * a server, and a `tools/call` to run as a task. Made only where tasks can run (the build leaves
 * it out on Workers, so a Worker carries none of it).
 */
export interface McpTaskRuntime {
  /** Whether one `tools/call` runs as a task, or the era's refusal (see `callModeOf`). */
  modeOf: (server: Server, era: McpEra, name: string, execution: McpToolExecution | undefined, params: Record<string, unknown>) => CallMode
  /** Installs the era's `tasks/*` methods on `server` (`deps`: what running a task's handler again needs). */
  install: (server: Server, era: McpEra, caller: () => McpRequestScope | undefined, deps: ResumeDeps) => void
  /** Runs one `tools/call` as a task. */
  call: (call: Omit<TaskCall, 'tasks'>) => Promise<CallToolResult | InputRequiredResult>
  /** Every task this process holds, oldest first (the DevTools tab). */
  list: () => TaskRecord[]
  /** Stops every task and forgets them (the endpoint closes). */
  close: () => void
}

function announceTransition(record: TaskRecord, from: TaskStatus): void {
  const change = from === record.status ? record.status : `${from} → ${record.status}`
  console.info(`[nuxt-mcp-elicitation] task ${record.id} (${record.tool}): ${change}${record.statusMessage ? ` · ${record.statusMessage}` : ''}`)
}

/**
 * Makes an endpoint's task runtime: its tasks in this process, within `limits`.
 *
 * @example
 * ```ts
 * const tasks = registry.tasks ? createTaskRuntime(config.tasks, { announce: import.meta.dev }) : undefined
 * ```
 */
export function createTaskRuntime(limits: TaskLimits, options: TaskRuntimeOptions = {}): McpTaskRuntime {
  const runner = new TaskRunner(new TaskTable(limits, { keepEndedAnswers: options.keepEndedAnswers === true }))
  // With several instances, every task is readable, answerable and cancellable on any of them.
  const directory = new TaskDirectory(runner, options.shared?.then(state => new SharedTasks(state)))
  // `nuxi dev`: each transition in the console, so a developer sees where a task is.
  if (options.announce) runner.watch(announceTransition)
  return {
    modeOf: callModeOf,
    install: (server, era, caller, deps) => {
      // A task whose instance died is run again here from the top, in either era (a legacy one
      // through this instance's server for its session).
      const takeOver = (record: TaskRecord, ctx: ServerContext) => resumeTask(server, ctx, deps, directory, record)
      if (era === 'legacy') installLegacyTaskHandlers(server, directory, caller, takeOver)
      else installModernTaskHandlers(server, directory, caller, takeOver)
    },
    call: call => callAsTask({ ...call, tasks: directory }),
    list: () => runner.table.all(),
    close: () => {
      runner.shutdown()
      runner.table.clear()
    },
  }
}
