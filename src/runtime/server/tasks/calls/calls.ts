import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'
import type { CallToolResult, InputRequiredResult, Server } from '@modelcontextprotocol/server'
import { runInMcpFrame } from '../../common/context'
import { executeHandler } from '../../elicitation/engine'
import type { HandlerOutcome } from '../../elicitation/engine'
import type { ElicitationRun } from '../../elicitation/run'
import type { TaskError, TaskRecord } from '../store/record'
import type { TaskDirectory } from '../store/directory'
import { answerTooLarge, callRecordOf, TaskLimitError, TaskSizeError } from '../store/table'
import { createdTask, legacyTask } from '../store/wire'
import { detachContext } from './detached-context'
import { toolError } from '../../mcp/definitions/results'
import { legacyOutlet } from './outlet'
import type { McpToolExecution } from '../store/support'
import type { TaskOutlet } from '../store/runner'
import { taskOwnerOf } from './methods'

/** What a handler reads of its task (`useMcpTask()`): its id once it exists, and where it begins. */
export interface McpTaskControl {
  /** The task's id, set once the task exists (a field, not a getter: see sse.ts on accessor literals). */
  id: string | undefined
  /** Begins the task here (a tool with `taskStart: 'on-begin'`); does nothing where it already runs. */
  begin: () => Promise<void>
}

declare module '../../common/context' {
  interface McpFrameSlots {
    /** The task of the tool call being run, when it runs as one. */
    task: McpTaskControl
  }
}

/** One tool call that runs as a task. */
export interface TaskCall {
  server: Server
  run: ElicitationRun
  secret: string
  tasks: TaskDirectory
  tool: { name: string, execution: McpToolExecution | undefined }
  /** The `ttl` a 2025-11-25 client asked for. */
  ttlMs?: number
  /** The call's arguments as sent: another instance parses them again when it takes the task over. */
  arguments: Record<string, unknown>
  /** Calls the user's handler (in the run, with its context). */
  invoke: () => unknown
  /** The handler's value as the call's result (its `outputSchema` checked). */
  finish: (value: unknown) => Promise<CallToolResult>
}

/** A handler's end as a task's end: a result (a thrown error is a tool error), or a protocol error as the task's error. */
export async function endOf(work: Promise<HandlerOutcome<unknown>>, finish: TaskCall['finish']): Promise<{ result: CallToolResult } | { error: TaskError }> {
  try {
    const outcome = await work
    if (outcome.kind !== 'done') return { error: { code: ProtocolErrorCode.InternalError, message: 'The handler asked a question before its task began, after the call had become a task.' } }
    return { result: await finish(outcome.value) }
  }
  catch (error) {
    if (error instanceof ProtocolError) return { error: { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) } }
    return { result: toolError(error instanceof Error ? error.message : String(error)) }
  }
}

/**
 * Moves a run that began as an ordinary call into `record`, wherever its handler is: what the
 * ordinary rounds settled goes into the task (a takeover runs the handler from the top, and must
 * not ask those questions again nor run those steps again), and from here on the handler asks,
 * logs and reports progress through the task, its context detached from the request.
 *
 * @example
 * ```ts
 * const record = await tasks.create(owner, era, tool.name, kept)
 * await detachIntoTask(run, tasks, record, era === 'legacy' ? legacyOutlet(server, tasks.runner) : undefined)
 * ```
 */
export async function detachIntoTask(run: ElicitationRun, tasks: TaskDirectory, record: TaskRecord, outlet: TaskOutlet | undefined): Promise<void> {
  const { runner } = tasks
  // What the ordinary rounds settled: a modern run's, or a page run's (a legacy client's answers
  // and steps kept for the app's page).
  const before = run.modern ?? run.page?.replay
  // Each with the digest of its question, which the task's own questions are digested alike with;
  // each within mcp.tasks.maxAnswerBytes like any answer a task keeps: a larger one is not kept,
  // and a takeover asks its question again.
  for (const [key, answer] of Object.entries(before?.answers ?? {})) {
    if (!answerTooLarge(runner.table.limits, answer.r)) record.answers[key] = { q: answer.q, r: answer.r }
  }
  for (const [key, step] of Object.entries(before?.steps ?? {})) record.steps[key] = { done: true, ...(step.v !== undefined && { v: step.v }) }
  if (before) await runner.persist(record)
  const parked = runner.launch(record, outlet, Object.keys(before?.answers ?? {}))
  run.parked = parked
  run.modern = undefined
  run.page = undefined
  run.ctx = detachContext(run.ctx, parked.signal)
}

/**
 * Resolves after the current turn of the event loop: what a handler finishes without waiting on
 * I/O or a timer has finished by then. (Deno's `setImmediate` is itself a timer, so there a
 * handler waiting on a timer of a millisecond may finish first: answered directly, as allowed.)
 *
 * @example
 * ```ts
 * const early = await Promise.race([end, nextTurn()]) // `undefined` when the handler still runs
 * ```
 */
export function nextTurn(): Promise<undefined> {
  return new Promise(resolve => typeof setImmediate === 'function' ? setImmediate(resolve, undefined) : setTimeout(resolve, 0, undefined))
}

/** The answer that hands the task to the client: 2026-07-28's flat `resultType: "task"`, or 2025-11-25's `{ task }`. */
function handle(record: TaskRecord): CallToolResult {
  // The SDK checks a task-carrying tools/call result against CallToolResult too (and on
  // 2026-07-28 adds the empty `content` itself): `content` it must have.
  return record.era === 'modern' ? { ...createdTask(record), content: [] } : { task: legacyTask(record), content: [] }
}

/**
 * Runs a tool call as a task: the task is created (at once, or where the handler calls
 * `useMcpTask().begin()`), the handler goes on in the background as a parked run, and the call
 * answers with the task's handle. A handler that ends before it began its task answers the call
 * directly on 2026-07-28, and as a task already completed on 2025-11-25 (whose client asked for one).
 *
 * @example
 * ```ts
 * if (mode.task) return callAsTask({ server, run, secret, tasks, tool, invoke, finish })
 * ```
 */
export async function callAsTask(call: TaskCall): Promise<CallToolResult | InputRequiredResult> {
  // The closures below outlive the call while the task runs: they read these, never `call`,
  // whose server (a per-request one on 2026-07-28) the task must not keep alive.
  const { run, tasks, secret, invoke, finish, tool, ttlMs, arguments: args } = call
  const { runner } = tasks
  const era = run.scope.era
  const outlet = era === 'legacy' ? legacyOutlet(call.server, runner) : undefined
  let record: TaskRecord | undefined
  let creating: Promise<TaskRecord> | undefined
  const control: McpTaskControl = {
    id: undefined,
    begin: async () => {
      await begin()
    },
  }
  let announce: (record: TaskRecord) => void = () => {}
  const begun = new Promise<TaskRecord>((resolve) => {
    announce = resolve
  })
  const create = async (): Promise<TaskRecord> => {
    try {
      const kept = callRecordOf(runner.table.limits, args, run.capabilities)
      record = await tasks.create(taskOwnerOf(run.scope, era), era, tool.name, kept, ttlMs)
      control.id = record.id
    }
    catch (error) {
      if (error instanceof TaskLimitError) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, error.message)
      if (error instanceof TaskSizeError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message)
      throw error
    }
    await detachIntoTask(run, tasks, record, outlet)
    announce(record)
    return record
  }
  const begin = (): Promise<TaskRecord> => (creating ??= create())
  if (tool.execution?.taskStart !== 'on-begin') await begin()
  const work = runInMcpFrame({ task: control }, () => executeHandler(run, secret, invoke))
  const handOut = async (task: TaskRecord, direct: boolean): Promise<CallToolResult> => {
    const end = endOf(work, finish)
    // 2026-07-28's immediate-result shortcut: a handler that ended by the time its handle would
    // go out answers the call itself, saving the client a `tasks/get` after its poll interval.
    // Not where the client asked for a task with 2025-11-25's `params.task`, nor after a
    // handler's own `begin()`: it said the rest is a task.
    const early = direct ? await Promise.race([end, nextTurn()]) : undefined
    if (early) {
      await tasks.withdraw(task)
      if ('error' in early) throw new ProtocolError(early.error.code, early.error.message, early.error.data)
      return early.result
    }
    runner.settleWith(task, end)
    return handle(task)
  }
  if (record) return handOut(record, era === 'modern')
  const first = await Promise.race([begun.then(task => ({ task })), work.then(outcome => ({ outcome }))])
  if ('task' in first) return handOut(first.task, false)
  // Ended (or asked, 2026-07-28's ordinary round) before its task began.
  if (first.outcome.kind !== 'done') return first.outcome.result
  const result = await finish(first.outcome.value)
  if (era === 'modern') return result
  const done = await begin()
  runner.settleWith(done, Promise.resolve({ result }))
  return handle(done)
}
