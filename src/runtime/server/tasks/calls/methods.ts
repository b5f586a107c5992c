import { MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'
import type { Server, ServerContext, StandardSchemaV1 } from '@modelcontextprotocol/server'
import type { McpEra, McpRequestScope } from '../../common/context'
import { isRecord } from '../../common/is-record'
import { PAGE_PARAMS } from '../../common/standard-schema'
import { checkAnswerShape } from '../../elicitation/question'
import type { QuestionKind } from '../../elicitation/question'
import { isTerminal } from '../store/record'
import type { TaskOwner, TaskRecord } from '../store/record'
import type { TaskDirectory } from '../store/directory'
import { answerTooLarge } from '../store/table'
import type { TaskLimits } from '../store/table'
import { detailedTask, legacyTask, RELATED_TASK, TASKS_EXTENSION } from '../store/wire'
import { holdResultStream } from './outlet'

/** `{ taskId }`, the params of every `tasks/*` request but `tasks/list`; other keys are kept. */
const TASK_PARAMS: StandardSchemaV1<unknown, { taskId: string }> = {
  '~standard': {
    version: 1,
    vendor: 'nuxt-mcp-elicitation',
    validate: value => isRecord(value) && typeof value.taskId === 'string'
      ? { value: { ...value, taskId: value.taskId } }
      : { issues: [{ message: 'params.taskId must be a string: the id the task was created with', path: ['taskId'] }] },
  },
}

const PAGE_SIZE = 50

/**
 * Whom a task of this request belongs to: its principal; on legacy its session too; anonymous,
 * its client address (what it is counted by, and on 2026-07-28 bound to).
 *
 * @example
 * ```ts
 * const found = await tasks.find(id, taskOwnerOf(getMcpScope(), 'modern'))
 * ```
 */
export function taskOwnerOf(scope: McpRequestScope | undefined, era: McpEra): TaskOwner {
  const principal = scope?.principal
  return {
    principal: principal ?? '',
    ...(era === 'legacy' && scope?.sessionId !== undefined && { sessionId: scope.sessionId }),
    ...(principal === undefined && { address: scope?.address ?? '' }),
  }
}

/** What an unknown id, an expired one and another caller's get alike (2025-11-25 and 2026-07-28: `-32602`). */
function unknownTask(id: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Failed to retrieve task: Task not found ("${id}"). It never existed, expired after its ttl, or belongs to another caller.`)
}

function kindOf(method: string): QuestionKind {
  return method === 'sampling/createMessage' ? 'sample' : method === 'roots/list' ? 'roots' : 'elicit'
}

/** 2026-07-28: `tasks/*` from a request that did not declare the extension get `-32021`, before any lookup. */
function requireExtension(server: Server): void {
  const extensions = server.getClientCapabilities()?.extensions
  if (isRecord(extensions) && isRecord(extensions[TASKS_EXTENSION])) return
  throw new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    `tasks/* requests need the tasks extension: declare "${TASKS_EXTENSION}": {} in the request's clientCapabilities.extensions.`,
  )
}

/**
 * The answers of a `tasks/update`, checked: a key that is not outstanding is ignored (spec); an
 * answer of the wrong shape to an outstanding one is refused, naming the key, and the question
 * stays open.
 */
function checkedAnswers(record: TaskRecord, responses: Record<string, unknown>, limits: TaskLimits): Record<string, unknown> {
  const answers: Record<string, unknown> = {}
  for (const [key, response] of Object.entries(responses)) {
    const asked = Object.hasOwn(record.questions, key) ? record.questions[key] : undefined
    if (!asked) continue
    const problem = checkAnswerShape(kindOf(asked.method), response) ?? answerTooLarge(limits, response)
    if (problem) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `inputResponses["${key}"]: ${problem}. The question stays open: send its bare result again.`)
    answers[key] = response
  }
  return answers
}

/**
 * 2026-07-28's tasks extension: `tasks/get` (the detailed task), `tasks/update` (answers to its
 * questions, acknowledged at once) and `tasks/cancel` (cooperative; an ended task is left as it
 * is). `tasks/result` and `tasks/list` are gone in this era: the SDK answers them `-32601`.
 *
 * @example
 * ```ts
 * installModernTaskHandlers(server, runner, () => scope)
 * ```
 */
export function installModernTaskHandlers(server: Server, tasks: TaskDirectory, caller: () => McpRequestScope | undefined, takeOver?: (record: TaskRecord, ctx: ServerContext) => void): void {
  const find = async (id: string, ctx: ServerContext) => {
    requireExtension(server)
    const found = await tasks.find(id, taskOwnerOf(caller(), 'modern'), takeOver && (record => takeOver(record, ctx)))
    if (!found) throw unknownTask(id)
    return found
  }
  server.setRequestHandler('tasks/get', { params: TASK_PARAMS }, async (params, ctx: ServerContext) => detailedTask((await find(params.taskId, ctx)).record))
  server.setRequestHandler('tasks/update', { params: TASK_PARAMS }, async (params, ctx: ServerContext) => {
    const found = await find(params.taskId, ctx)
    // The SDK lifts `inputResponses` out of params on this era, as for any retried request.
    await tasks.answer(found, checkedAnswers(found.record, ctx.mcpReq.inputResponses ?? {}, tasks.runner.table.limits))
    return {}
  })
  server.setRequestHandler('tasks/cancel', { params: TASK_PARAMS }, async (params, ctx: ServerContext) => {
    await tasks.cancel(await find(params.taskId, ctx))
    return {}
  })
}

/** What `tasks/result` answers for an ended task: the call's own result, or its own error. */
function payloadOf(record: TaskRecord): Record<string, unknown> {
  if (record.result) return { ...record.result, _meta: { ...(isRecord(record.result._meta) ? record.result._meta : {}), [RELATED_TASK]: { taskId: record.id } } }
  if (record.error) throw new ProtocolError(record.error.code, record.error.message, record.error.data)
  throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `The task "${record.id}" was ${record.status} before it had a result${record.statusMessage ? `: ${record.statusMessage}` : ''}.`)
}

/**
 * 2025-11-25's experimental tasks, on a legacy session: `tasks/get`, `tasks/result` (blocks until
 * the task ends; its questions ride this stream meanwhile), `tasks/list` (paged) and
 * `tasks/cancel` (`-32602` for an ended task, as that revision says).
 *
 * @example
 * ```ts
 * installLegacyTaskHandlers(server, runner, () => getMcpScope())
 * ```
 */
export function installLegacyTaskHandlers(server: Server, tasks: TaskDirectory, caller: () => McpRequestScope | undefined, takeOver?: (record: TaskRecord, ctx: ServerContext) => void): void {
  const find = async (id: string, ctx: ServerContext, { markSeen = true } = {}) => {
    const found = await tasks.find(id, taskOwnerOf(caller(), 'legacy'), takeOver && (record => takeOver(record, ctx)))
    if (!found) throw unknownTask(id)
    // The client holds the task: its questions may now be pushed.
    if (markSeen) await tasks.markSeen(found)
    return found
  }
  server.setRequestHandler('tasks/get', { params: TASK_PARAMS }, async (params, ctx: ServerContext) => legacyTask((await find(params.taskId, ctx)).record))
  server.setRequestHandler('tasks/result', { params: TASK_PARAMS }, async (params, ctx: ServerContext) => {
    const found = await find(params.taskId, ctx, { markSeen: false })
    const settled = tasks.settled(found, taskOwnerOf(caller(), 'legacy'), ctx.mcpReq.signal, takeOver && (record => takeOver(record, ctx)))
    // Held before the task counts as seen: a question waiting for that goes out on this stream,
    // on the instance that runs the task (this one, or this one once it took the task over),
    // rather than across instances to the session's GET stream.
    const holding = holdResultStream(found.record.id, ctx, settled)
    await tasks.markSeen(found)
    await holding
    const record = await settled
    if (!isTerminal(record.status)) throw new ProtocolError(ProtocolErrorCode.InternalError, `The task "${record.id}" has not ended: its tasks/result request was closed first. Call tasks/result again.`)
    return payloadOf(record)
  })
  server.setRequestHandler('tasks/list', { params: PAGE_PARAMS }, (params) => {
    // The tasks this instance runs for the session (a session's tasks are created where it lives).
    const all = tasks.runner.table.list(taskOwnerOf(caller(), 'legacy'))
    const { cursor } = params
    let start = 0
    if (cursor !== undefined) {
      const index = all.findIndex(record => record.id === cursor)
      if (index < 0) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor "${cursor}": send the nextCursor of the previous tasks/list page, or none for the first.`)
      start = index + 1
    }
    const page = all.slice(start, start + PAGE_SIZE)
    const last = page.at(-1)
    return { tasks: page.map(legacyTask), ...(start + PAGE_SIZE < all.length && last && { nextCursor: last.id }) }
  })
  server.setRequestHandler('tasks/cancel', { params: TASK_PARAMS }, async (params, ctx: ServerContext) => {
    const found = await find(params.taskId, ctx)
    if (!await tasks.cancel(found)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel task "${found.record.id}": it already ended (${found.record.status}).`)
    return legacyTask(found.record)
  })
}
