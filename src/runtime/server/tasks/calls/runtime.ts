/**
 * The tasks wing's calls (`tasks/calls/`): the MCP-facing side of tasks, what the endpoint holds
 * of them (this file), a `tools/call` run as a task (or as a job, for a client without tasks:
 * jobs.ts), the `tasks/*` methods of each era, a legacy task's outlet to its session, a 2026-07-28
 * task resumed on another instance, `useMcpTask()` and the request's context a task keeps. It stands on the definitions (registry, handler context,
 * results) and on `tasks/store/`; it must not know the server room, HTTP or sessions.
 */
import type { CallToolResult, InputRequiredResult, Server, ServerContext } from '@modelcontextprotocol/server'
import type { McpEra, McpRequestScope } from '../../common/context'
import { TaskRunner } from '../store/runner'
import { TaskTable } from '../store/table'
import { TaskDirectory } from '../store/directory'
import { SharedTasks } from '../store/shared-tasks'
import type { McpSharedState } from '../../cluster/shared-state'
import type { TaskLimits } from '../store/table'
import type { TaskRecord, TaskStatus } from '../store/record'
import { callAsTask } from './calls'
import type { TaskCall } from './calls'
import { installLegacyTaskHandlers, installModernTaskHandlers } from './methods'
import { callModeOf } from '../store/support'
import { resumeTask } from './resume'
import type { ResumeDeps } from './resume'
import type { CallMode, McpToolExecution } from '../store/support'
import { JobBindings } from '../store/jobs'
import { callAsJob, jobBindingOf } from './jobs'
import type { JobCall } from './jobs'

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
  /**
   * The binding one inline `tools/call` runs under as a job (it goes on as a task past
   * `mcp.tasks.detachAfterMs`), or `undefined` when it runs inline all the way (see `jobBindingOf`).
   */
  jobOf: (server: Server, scope: McpRequestScope | undefined, name: string, execution: McpToolExecution | undefined, args: Record<string, unknown>) => string | undefined
  /** Runs one `tools/call` as a job under `binding` (`ctx`, `deps`: what taking its task over needs). */
  job: (call: Omit<JobCall, 'tasks' | 'jobs' | 'detachAfterMs' | 'takeOver'> & { ctx: ServerContext, deps: ResumeDeps }) => Promise<CallToolResult | InputRequiredResult>
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
  // Which call runs the job of one caller, tool and arguments: across instances with Redis.
  const jobs = new JobBindings(options.shared)
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
    jobOf: (server, scope, name, execution, args) => {
      // A 2025-11-25 client that declared tasks and called without `params.task` chose an ordinary call.
      const declaresTasks = scope?.era === 'legacy' && server.getClientCapabilities()?.tasks !== undefined
      return jobBindingOf(scope, name, execution, args, limits.detachAfterMs, declaresTasks)
    },
    job: ({ ctx, deps, ...call }) => callAsJob({
      ...call,
      tasks: directory,
      jobs,
      detachAfterMs: limits.detachAfterMs,
      takeOver: record => resumeTask(call.server, ctx, deps, directory, record),
    }),
    list: () => runner.table.all(),
    close: () => {
      runner.shutdown()
      runner.table.clear()
    },
  }
}
