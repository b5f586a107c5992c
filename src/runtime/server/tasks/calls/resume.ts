import { ProtocolErrorCode, specTypeSchemas } from '@modelcontextprotocol/server'
import type { ClientCapabilities, Server, ServerContext } from '@modelcontextprotocol/server'
import { runInMcpFrame } from '../../common/context'
import { executeHandler } from '../../elicitation/engine'
import type { TaskDirectory } from '../store/directory'
import { callArgumentsOf } from '../store/record'
import type { TaskRecord } from '../store/record'
import { createRun, handlerContext } from '../../mcp/definitions/handler-context'
import type { RunDeps } from '../../mcp/definitions/handler-context'
import type { McpRegistry } from '../../mcp/definitions/registry'
import { toToolResult } from '../../mcp/definitions/results'
import { endOf } from './calls'
import { detachContext } from './detached-context'
import { legacyOutlet } from './outlet'

/** What running a handler again needs besides the request that found the task. */
export interface ResumeDeps extends RunDeps {
  registry: McpRegistry
  secret: string
}

/** The capabilities the task's own call declared (its questions are asked as that client can answer). */
function capabilitiesOf(record: TaskRecord): ClientCapabilities | undefined {
  const checked = specTypeSchemas.ClientCapabilities['~standard'].validate(record.call.capabilities ?? {})
  return checked instanceof Promise || checked.issues ? undefined : checked.value
}

/**
 * Runs the handler of a task again, here, after the instance that ran it stopped: from the top,
 * with the answers and `once()` results the record kept, so nothing answered is asked again and
 * no finished step runs again. The request that found the task lends its scope (same principal,
 * checked; on 2025-11-25 the same session too, whose server here pushes the task's questions);
 * the task's own call lends its arguments and capabilities.
 *
 * @example
 * ```ts
 * const found = await tasks.find(id, owner, record => resumeTask(server, ctx, deps, tasks, record))
 * ```
 */
export function resumeTask(server: Server, ctx: ServerContext, deps: ResumeDeps, tasks: TaskDirectory, record: TaskRecord): void {
  const { runner } = tasks
  const run = createRun(server, ctx, deps, { method: 'tools/call', name: record.tool })
  run.capabilities = capabilitiesOf(record)
  // A legacy task's questions and log lines reach its session through this instance's server for it.
  // A job's client holds no task: its questions wait in the record, as they did where it began.
  const parked = runner.launch(record, record.era === 'legacy' && !record.job ? legacyOutlet(server, runner) : undefined)
  run.parked = parked
  run.modern = undefined
  run.ctx = detachContext(ctx, parked.signal)
  const tool = deps.registry.tools.get(record.tool)
  if (!tool) {
    runner.settleWith(record, Promise.resolve({ error: { code: ProtocolErrorCode.InternalError, message: `The task's tool "${record.tool}" is not on this instance, so the task cannot go on here. Deploy the same tools on every instance.` } }))
    return
  }
  const work = Promise.resolve().then(() => tool.args(callArgumentsOf(record.call))).then((parsed) => {
    if (!parsed.ok) throw new Error(`Invalid arguments for tool "${tool.name}": ${parsed.problem}`)
    const control = { id: record.id, begin: async () => {} }
    return runInMcpFrame({ task: control }, () => executeHandler(run, deps.secret, () => tool.definition.handler(parsed.data, handlerContext(run))))
  })
  runner.settleWith(record, endOf(work, value => toToolResult(value, tool.output)))
}
