import { isCallToolResult, ProtocolError } from '@modelcontextprotocol/server'
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server'
import { runInMcpFrame } from '../../common/context'
import type { McpRequestScope } from '../../common/context'
import { isRecord } from '../../common/is-record'
import { executeHandler } from '../../elicitation/engine'
import type { HandlerOutcome } from '../../elicitation/engine'
import { callBindingOf } from '../../elicitation/page/binding'
import type { ElicitationRun } from '../../elicitation/run'
import { toolError } from '../../mcp/definitions/results'
import { isTerminal } from '../store/record'
import type { TaskRecord } from '../store/record'
import type { TaskDirectory } from '../store/directory'
import type { JobBindings, JobHold } from '../store/jobs'
import type { McpToolExecution } from '../store/support'
import { callRecordOf } from '../store/table'
import { JOB_META, jobState } from '../store/wire'
import { detachIntoTask, endOf, nextTurn } from './calls'
import type { McpTaskControl, TaskCall } from './calls'
import { taskOwnerOf } from './methods'

// A job: a `taskSupport: 'optional'` tool called by a client without tasks runs inline, as it
// always did, up to `mcp.tasks.detachAfterMs`; past it the call answers with an ordinary tool
// result that says the work goes on, and the run goes on as a task (the same records, Redis
// sharing and takeover as any task). The same caller calling the tool again with the same
// arguments gets its progress, then its result, which ends the binding.

/**
 * One call that may become a job: a task call's parts, with its binding and what a job needs.
 *
 * @example
 * ```ts
 * const call: JobCall = { server, run, secret, tasks, jobs, binding, detachAfterMs: 30_000, tool: { name: 'report', execution, typed: false }, arguments: args, invoke, finish, takeOver }
 * ```
 */
export interface JobCall extends Omit<TaskCall, 'tool' | 'ttlMs'> {
  tool: { name: string, execution: McpToolExecution | undefined, /** It declares an `outputSchema`. */ typed: boolean }
  /** What ties this call to a later identical one (`callBindingOf`). */
  binding: string
  /** The endpoint's job bindings. */
  jobs: JobBindings
  /** How long the call runs inline before it goes on as a task (`mcp.tasks.detachAfterMs`). */
  detachAfterMs: number
  /** Runs a job's handler again here when the instance that ran it is gone (a takeover). */
  takeOver: (record: TaskRecord) => void
}

/**
 * The binding a `tools/call` runs as a job under, or `undefined` when it runs as it always did:
 * the tool is `taskSupport: 'optional'`, `detachAfterMs` is above 0, the client did not declare
 * tasks (a 2025-11-25 client that did and called without `params.task` chose an ordinary call),
 * and the caller can be told apart (a principal, or a legacy session: an anonymous 2026-07-28
 * caller cannot, and runs inline all the way).
 *
 * @example
 * ```ts
 * const binding = jobBindingOf(scope, 'deploy', { taskSupport: 'optional' }, { env: 'prod' }, 30_000, false)
 * ```
 */
export function jobBindingOf(scope: McpRequestScope | undefined, name: string, execution: McpToolExecution | undefined, args: Record<string, unknown>, detachAfterMs: number, declaresTasks: boolean): string | undefined {
  if (!scope || detachAfterMs <= 0 || execution?.taskSupport !== 'optional' || declaresTasks) return undefined
  return callBindingOf(scope, name, args)
}

/** Counts the run's questions out on its request (legacy pushes): the call does not end under one. */
function trackQuestions(run: ElicitationRun): { quiet: () => Promise<void> } {
  let out = 0
  let waiting: (() => void)[] = []
  const { mcpReq } = run.ctx
  // A legacy question goes out through the request's `send` (elicitation/legacy.ts): counted here,
  // without the engine knowing jobs. (A 2026-07-28 question ends its round at once instead.)
  const send = new Proxy(mcpReq.send, {
    apply(target, self, args) {
      out += 1
      const sent: Promise<unknown> = Reflect.apply(target, self, args)
      void sent.then(settle, settle)
      return sent
    },
  })
  function settle() {
    out -= 1
    if (out > 0) return
    const now = waiting
    waiting = []
    for (const resolve of now) resolve()
  }
  run.ctx = { ...run.ctx, mcpReq: { ...mcpReq, send } }
  return { quiet: () => out === 0 ? Promise.resolve() : new Promise<void>(resolve => waiting.push(resolve)) }
}

/** Resolves `detachAfterMs` from now once no question is out, unless `cancel` is called first. */
function detachMoment(detachAfterMs: number, quiet: () => Promise<void>): { reached: Promise<void>, cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined
  const reached = new Promise<void>((resolve) => {
    timer = setTimeout(() => void quiet().then(resolve), detachAfterMs)
  })
  return { reached, cancel: () => clearTimeout(timer) }
}

function seconds(ms: number): string {
  return `${Math.max(1, Math.round(ms / 1000))} s`
}

/** The words of a result that tells the model to call again. */
function callAgain(tool: string, record: Pick<TaskRecord, 'pollIntervalMs'>): string {
  return `Call "${tool}" again with the same arguments to see its progress, and its result once it is done (no sooner than every ${seconds(record.pollIntervalMs)}).`
}

/** `isError` on a typed tool's job result: the SDK clients refuse a result without `structuredContent` otherwise. */
function typedFlag(typed: boolean): { isError?: true } {
  return typed ? { isError: true } : {}
}

/** What a question the job waits on asks, in words. */
function questionText(record: TaskRecord): string {
  const [question] = Object.values(record.questions)
  const message = isRecord(question?.params) && typeof question.params.message === 'string' ? question.params.message : undefined
  return message === undefined ? 'a question' : `"${message}"`
}

/**
 * The result that says a job goes on: in words for the model (what it does now, how to check on
 * it), and in `_meta[JOB_META]` for a client that reads it. A typed tool's is `isError`, since
 * the v1 and v2 SDK clients refuse a result of a tool with an `outputSchema` that has no
 * `structuredContent`, and a job's state never goes there; its words say it is no failure.
 *
 * @example
 * ```ts
 * return runningResult(record, 'deploy', false) // { content: [{ type: 'text', text: 'The job "deploy" goes on …' }], _meta: { … } }
 * ```
 */
export function runningResult(record: TaskRecord, tool: string, typed: boolean): CallToolResult {
  const notError = typed ? ' This is not a failure: the tool has not finished yet.' : ''
  const text = record.status === 'input_required'
    ? `The job "${tool}" waits for an answer to ${questionText(record)}, which this client cannot be asked. ${callAgain(tool, record)}${notError}`
    : `The job "${tool}" goes on in the background${record.statusMessage ? ` (${record.statusMessage})` : ''}. ${callAgain(tool, record)}${notError}`
  return { content: [{ type: 'text', text }], ...typedFlag(typed), _meta: { [JOB_META]: jobState(record) } }
}

/** What an identical call gets while the first still runs inline (its task does not exist yet). */
function startingResult(tool: string, pollIntervalMs: number, typed: boolean): CallToolResult {
  const notError = typed ? ' This is not a failure: the tool has not finished yet.' : ''
  const text = `The job "${tool}" was started by an identical call a moment ago and still runs. ${callAgain(tool, { pollIntervalMs })}${notError}`
  return { content: [{ type: 'text', text }], ...typedFlag(typed), _meta: { [JOB_META]: { status: 'working', pollIntervalMs } } }
}

/**
 * What an ended job's call answers: its result (with its state in `_meta`), a tool error saying
 * why it stopped, or the protocol error it failed with.
 *
 * @example
 * ```ts
 * if (isTerminal(record.status)) return endedResult(record)
 * ```
 */
export function endedResult(record: TaskRecord): CallToolResult {
  const meta = { [JOB_META]: jobState(record) }
  const result = record.result
  if (isCallToolResult(result)) return { ...result, _meta: { ...(isRecord(result._meta) && result._meta), ...meta } }
  if (record.error) throw new ProtocolError(record.error.code, record.error.message, record.error.data)
  return { ...toolError(`The job "${record.tool}" ended ${record.status}${record.statusMessage ? `: ${record.statusMessage}` : ''}. Call the tool again to start it afresh.`), _meta: meta }
}

/**
 * The job's progress, or its result once it ended (which ends the binding: a later identical
 * call starts afresh); `undefined` when its task is gone (expired, forgotten), which ends the
 * binding too.
 */
async function jobStatus(call: JobCall, held: JobHold & { taskId: string }): Promise<CallToolResult | undefined> {
  const owner = taskOwnerOf(call.run.scope, call.run.scope.era)
  const found = await call.tasks.find(held.taskId, owner, call.takeOver)
  if (!found) {
    await call.jobs.end(call.binding, held.token)
    return undefined
  }
  if (!isTerminal(found.record.status)) return runningResult(found.record, call.tool.name, call.tool.typed)
  await call.jobs.end(call.binding, held.token)
  return endedResult(found.record)
}

/**
 * Runs a call that may become a job: the first of a binding runs the handler, inline up to
 * `detachAfterMs` (or until it calls `useMcpTask().begin()`), then as a task; an identical call
 * meanwhile gets the job's progress, or its result once it ended. Nothing runs twice: the
 * binding is claimed atomically before the handler starts.
 *
 * @example
 * ```ts
 * if (binding) return callAsJob({ server, run, secret, tasks, jobs, binding, detachAfterMs, tool, arguments, invoke, finish, takeOver })
 * ```
 */
export async function callAsJob(call: JobCall): Promise<CallToolResult | InputRequiredResult> {
  const { run, jobs, binding, tasks } = call
  // The claim covers the inline part: the limit, and a legacy question out past it (asked the
  // ordinary way, it may wait the elicitation timeout); a process that dies there frees it then.
  const inlineMs = call.detachAfterMs + run.config.elicitation.timeoutMs + 10_000
  // Twice at most: a binding whose task is gone is ended, and claimed afresh.
  for (let attempt = 0; attempt < 2; attempt++) {
    const claim = await jobs.claim(binding, inlineMs)
    if (claim.claimed) return runJob(call, claim.token)
    const { held } = claim
    if (held.taskId === undefined) return startingResult(call.tool.name, tasks.runner.table.limits.pollIntervalMs, call.tool.typed)
    const status = await jobStatus(call, { ...held, taskId: held.taskId })
    if (status) return status
  }
  throw new Error(`The job of "${call.tool.name}" changed hands while this call looked for it: call the tool again.`)
}

/** The handler's run for the call that holds the binding (`token`). */
async function runJob(call: JobCall, token: string): Promise<CallToolResult | InputRequiredResult> {
  const { run, tasks, jobs, binding, secret, invoke, finish, tool, arguments: args } = call
  const { runner } = tasks
  const era = run.scope.era
  const asking = trackQuestions(run)
  let creating: Promise<TaskRecord> | undefined
  let announce: (record: TaskRecord) => void = () => {}
  const begun = new Promise<TaskRecord>((resolve) => {
    announce = resolve
  })
  const create = async (): Promise<TaskRecord> => {
    const kept = callRecordOf(runner.table.limits, args, run.capabilities)
    const record = await tasks.create(taskOwnerOf(run.scope, era), era, tool.name, kept)
    record.job = true
    control.id = record.id
    // No outlet: its client holds no task, so its questions wait in the record (see docs/tasks.md).
    await detachIntoTask(run, tasks, record, undefined)
    await runner.persist(record)
    // Lost only when the inline part outlived its claim: the job goes on, but a later identical call starts another.
    if (!await jobs.bind(binding, token, record.id, record.ttlMs)) console.warn(`[nuxt-mcp-elicitation] The call of "${tool.name}" went on as task ${record.id} after its binding had expired (its inline part ran longer than mcp.tasks.detachAfterMs plus mcp.elicitation.timeoutMs): an identical call will not find it.`)
    announce(record)
    return record
  }
  const detach = (): Promise<TaskRecord> => (creating ??= create())
  // `useMcpTask()` in a job: `begin()` sends the call on as a task there and then.
  const control: McpTaskControl = {
    id: undefined,
    begin: async () => {
      await detach()
    },
  }
  const work = runInMcpFrame({ task: control }, () => executeHandler(run, secret, invoke))
  const moment = detachMoment(call.detachAfterMs, asking.quiet)
  type First = { outcome: HandlerOutcome<unknown> } | { error: unknown } | { task: TaskRecord } | { limit: true }
  const first: First = await Promise.race<First>([
    work.then(outcome => ({ outcome }), (error: unknown) => ({ error })),
    begun.then(task => ({ task })),
    moment.reached.then(() => ({ limit: true as const })),
  ])
  moment.cancel()
  let task = 'task' in first ? first.task : undefined
  // A round that is ending (its questions go to the page, or out as input_required) ends the call
  // with them: the limit does not turn it into a task.
  const roundEnding = (run.page?.replay.pending.size ?? 0) + (run.modern?.pending.size ?? 0) > 0
  if ('limit' in first && !roundEnding) {
    task = await detach().catch((error: unknown) => {
      // A task could not be made (the caller's cap, a call larger than a task keeps): the call
      // goes on inline, as it did before jobs, rather than fail a run that is under way.
      console.warn(`[nuxt-mcp-elicitation] The call of "${tool.name}" ran past mcp.tasks.detachAfterMs but could not go on as a task, so it goes on inline: ${error instanceof Error ? error.message : String(error)}`)
      return undefined
    })
  }
  if (task) {
    const end = endOf(work, finish)
    // Ended while its task was being made: answered directly, the task forgotten.
    const early = await Promise.race([end, nextTurn()])
    if (!early) {
      runner.settleWith(task, end)
      return runningResult(task, tool.name, tool.typed)
    }
    await tasks.withdraw(task)
    await jobs.end(binding, token)
    if ('error' in early) throw new ProtocolError(early.error.code, early.error.message, early.error.data)
    return early.result
  }
  try {
    if ('error' in first) throw first.error
    const settled = 'outcome' in first ? first.outcome : await work
    // A 2026-07-28 round that asks ends here: its next round is a new call, which claims again.
    if (settled.kind !== 'done') return settled.result
    return await finish(settled.value)
  }
  catch (error) {
    if (error instanceof ProtocolError) throw error
    return toolError(error instanceof Error ? error.message : String(error))
  }
  finally {
    await jobs.end(binding, token)
  }
}
