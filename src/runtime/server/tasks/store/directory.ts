import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'
import { DELIVERY_DEADLINE_MS } from '../../cluster/try-until'
import { isTerminal, moveTask, ownsTask, settleQuestion } from './record'
import type { TaskOwner, TaskRecord } from './record'
import type { TaskRunner } from './runner'
import type { SharedTasks, TaskMessage } from './shared-tasks'
import { answerTooLarge, TaskLimitError } from './table'
import type { TaskLimits } from './table'

/**
 * How a message reached the instance that runs a task: in its inbox (`heard`: it reads it now, or
 * once its connection to Redis is back), that instance found gone, or Redis could not take it.
 */
type Delivery = 'heard' | 'gone' | 'unreachable'

/**
 * Hands `message` to the instance `runner` through the mailbox (cluster/mailbox.ts): put in its
 * inbox once, where an instance whose subscriber is reconnecting after a Redis restart reads it
 * when it is back (the chaos run caught a task that waited forever on an answer published to
 * nobody then).
 */
async function deliver(shared: SharedTasks, runner: string, message: TaskMessage): Promise<Delivery> {
  const sent = await shared.send(runner, message)
  if (sent.outcome === 'unreachable') console.error(`[nuxt-mcp-elicitation] A message for task ${message.taskId} (${message.kind}) was not handed to instance ${runner}: ${sent.reason}.`)
  return sent.outcome === 'gone' || sent.outcome === 'unreachable' ? sent.outcome : 'heard'
}

/** Frees `record`'s places under the caps across instances, and what it no longer needs; a failure only delays that to its ttl. */
async function release(shared: SharedTasks, record: Pick<TaskRecord, 'id' | 'owner'>, limits: TaskLimits): Promise<void> {
  await shared.release(record, limits).catch(error => console.error(`[nuxt-mcp-elicitation] Could not free the place of task ${record.id} under its caller's cap (it is freed with its ttl):`, error))
}

/** A task found for a caller: the record, and whether its handler runs in this process. */
export interface FoundTask {
  record: TaskRecord
  /** Runs here: answers and cancellations go straight to the runner. */
  local: boolean
  /** The instance that runs it, when another one does. */
  runner?: string
}

const GONE = 'The instance that ran this task stopped before it ended, and this one cannot continue it: call the tool again.'

/**
 * Where a request finds the tasks it asks about: this process's runner first, then, with several
 * instances, the shared copy (any instance reads, answers or cancels any task; what only the
 * running instance can do is handed to it). Every lookup checks the owner: a foreign id reads
 * as an unknown one.
 *
 * @example
 * ```ts
 * const found = await directory.find(taskId, { principal: 'ana' })
 * if (found) await directory.answer(found, responses)
 * ```
 */
export class TaskDirectory {
  readonly runner: TaskRunner
  private readonly sharing: Promise<SharedTasks> | undefined

  constructor(runner: TaskRunner, sharing?: Promise<SharedTasks>) {
    this.runner = runner
    this.sharing = sharing?.then(async (shared) => {
      await shared.listen(message => this.receive(message))
      // Every change the runner makes is written through, so any instance reads it; a task that
      // ended frees its place under its caller's cap at once.
      // An instance whose task was taken over while it was held for gone (its connection to Redis
      // cut past ALIVE_TTL_MS) gives the task up when it comes back: its writes would overwrite
      // the new runner's, and its steps run a second time.
      const givenUp = (record: TaskRecord) => shared.takenOverFromHere(record.id).then((taken) => {
        if (taken && runner.table.find(record.id)) {
          console.error(`[nuxt-mcp-elicitation] Task ${record.id} was taken over by another instance while this one was held for gone (its connection to the shared state was cut): this instance stops its handler and leaves the task to the other.`)
          runner.withdraw(record)
        }
        return taken
      })
      runner.watch((record, from) => {
        // Checked, then written, in the order of the changes (one connection answers in order).
        void givenUp(record).then(async (taken) => {
          if (taken) return
          await shared.save(record)
          if (isTerminal(record.status) && !isTerminal(from)) void release(shared, record, runner.table.limits)
        }).catch(error => console.error(`[nuxt-mcp-elicitation] Could not share the state of task ${record.id}:`, error))
      })
      // A once() step is claimed where every instance sees it before it runs; not by an instance
      // whose task was taken over meanwhile.
      runner.persist = async (record) => {
        if (await givenUp(record)) throw new ProtocolError(ProtocolErrorCode.InternalError, `Task ${record.id} was taken over by another instance: this one runs no further step of it.`)
        await shared.save(record)
      }
      return shared
    })
  }

  /** Creates a task for `owner`, counted against its cap here and, shared, across instances; shared before it is returned. */
  async create(owner: TaskOwner, era: TaskRecord['era'], tool: string, call: TaskRecord['call'], ttlMs?: number): Promise<TaskRecord> {
    const { table } = this.runner
    const record = table.create(owner, era, tool, call, ttlMs)
    const shared = await this.sharing
    if (!shared) return record
    try {
      const full = await shared.admit(record, table.limits)
      if (full === 'maxPerPrincipal') {
        throw new TaskLimitError(`This caller already has the most tasks running allowed across the server's instances (mcp.tasks.maxPerPrincipal = ${table.limits.maxPerPrincipal}). Wait for some to end, or cancel them: an ended task no longer counts. The server's operator can raise the limit.`)
      }
      if (full === 'max') {
        throw new TaskLimitError(`The server's instances run the most tasks allowed (mcp.tasks.max = ${table.limits.max}). Try again later; the server's operator can raise the limit.`)
      }
      // A task is handed out only once every instance can read it; its call is written once.
      await Promise.all([shared.saveCall(record), shared.save(record)])
    }
    catch (error) {
      table.discard(record.id)
      throw error
    }
    return record
  }

  /**
   * Task `id` if `caller` owns it, wherever it runs; `undefined` otherwise. A task whose instance
   * is gone is taken over here when `takeOver` can run its handler again (it is handed the
   * record, now held here), and otherwise ends `failed`, saying why: none waits forever.
   */
  async find(id: string, caller: TaskOwner, takeOver?: (record: TaskRecord) => void): Promise<FoundTask | undefined> {
    const record = this.runner.table.get(id, caller)
    if (record) return { record, local: true }
    const shared = await this.sharing
    const copy = await shared?.read(id)
    if (!shared || !copy || !ownsTask(copy, caller)) return undefined
    const { runner, ...rest } = copy
    // What only a takeover reads of its call is read then; elsewhere the record stands without it.
    const found: TaskRecord = { ...rest, call: { arguments: '{}' } }
    if (isTerminal(found.status) || !await shared.isGone(runner)) return { record: found, local: false, runner }
    if (takeOver) {
      if (!await shared.claimTakeover(id, runner, found.createdAt + found.ttlMs - Date.now())) return { record: found, local: false, runner }
      found.call = await shared.readCall(id) ?? found.call
      // What the client asked through other instances that the dead one may never have heard.
      const kept = await shared.keptRequests(id)
      for (const [key, answer] of Object.entries(kept.answers)) {
        if (Object.hasOwn(found.answers, key) || answerTooLarge(this.runner.table.limits, answer.r)) continue
        settleQuestion(found, key, answer.r, answer.q)
      }
      this.runner.table.adopt(found)
      if (kept.cancelled && moveTask(found, 'cancelled', 'The client cancelled the task.')) await release(shared, found, this.runner.table.limits)
      await shared.save(found)
      if (!kept.cancelled) takeOver(found)
      return { record: found, local: true }
    }
    if (moveTask(found, 'failed', GONE)) await release(shared, found, this.runner.table.limits)
    found.error = { code: -32603, message: GONE }
    await shared.save(found, runner)
    return { record: found, local: false, runner }
  }

  /**
   * Forgets a task whose call was answered directly (it ended before its handle went out): here,
   * and, shared, its copy and its place under its owner's cap, so it counts against nothing.
   */
  async withdraw(record: TaskRecord): Promise<void> {
    this.runner.withdraw(record)
    const shared = await this.sharing
    // The answer is already the client's: a copy left behind only holds a place until its ttl.
    await shared?.withdraw(record).catch(error => console.error(`[nuxt-mcp-elicitation] Could not remove the shared copy of task ${record.id}, answered directly (it expires with its ttl):`, error))
  }

  /**
   * Gives the task the answers of a `tasks/update`. Run elsewhere, they are kept for a takeover
   * first, then put in the running instance's inbox; when Redis cannot take them within
   * {@link DELIVERY_DEADLINE_MS}, the update is refused, so the client sends them again rather
   * than wait on answers nobody will read.
   */
  async answer(found: FoundTask, responses: Record<string, unknown>): Promise<void> {
    if (found.local) return this.runner.answer(found.record, responses)
    const shared = await this.sharing
    if (!shared || !found.runner) return
    const message: TaskMessage = { kind: 'update', taskId: found.record.id, responses }
    // Kept first: the running instance may die before it hears, and its successor reads them.
    await shared.keepRequest(found.record, message)
    if (await deliver(shared, found.runner, message) === 'unreachable') {
      throw new ProtocolError(ProtocolErrorCode.InternalError, `The instance that runs task "${found.record.id}" (${found.runner}) could not be handed these answers within ${DELIVERY_DEADLINE_MS / 1000} s: the shared state (NUXT_MCP_REDIS_URL) did not take them. Send tasks/update again: an answer the task already has counts once.`)
    }
  }

  /** Cancels the task; `false` when it had already ended. */
  async cancel(found: FoundTask): Promise<boolean> {
    if (found.local) return this.runner.cancel(found.record)
    if (isTerminal(found.record.status)) return false
    const shared = await this.sharing
    const message: TaskMessage = { kind: 'cancel', taskId: found.record.id }
    moveTask(found.record, 'cancelled', 'The client cancelled the task.')
    if (!shared || !found.runner) return true
    await shared.keepRequest(found.record, message)
    // Heard (in its inbox): the running instance moves it, and this answer says what the client
    // asked for. Otherwise the shared copy says it, and the instance that takes the task over reads it.
    const delivery = await deliver(shared, found.runner, message)
    if (delivery === 'heard') return true
    await shared.save(found.record, found.runner)
    // Its places are freed only when its handler surely stopped: its instance is gone. One not
    // reached in time may still run it, so the task counts until that instance ends it, an
    // instance that takes it over reads the kept cancellation, or its ttl is over.
    if (delivery === 'gone') await release(shared, found.record, this.runner.table.limits)
    return true
  }

  /** Notes that the client holds the task, wherever it runs (a legacy task's questions wait for it). */
  async markSeen(found: FoundTask): Promise<void> {
    if (found.local) return this.runner.seen.mark(found.record.id)
    // A note that went nowhere is sent again with the client's next request: once is enough, and
    // the request does not wait for it (the mailbox tries a while when Redis cannot take it).
    const shared = await this.sharing
    if (found.runner && shared) void shared.send(found.runner, { kind: 'seen', taskId: found.record.id })
  }

  /** Resolves once the task has ended, or `signal` aborts: at once here, by its shared copy elsewhere. */
  async settled(found: FoundTask, caller: TaskOwner, signal: AbortSignal, takeOver?: (record: TaskRecord) => void): Promise<TaskRecord> {
    let current = found
    while (!current.local && !isTerminal(current.record.status) && !signal.aborted) {
      await new Promise(resolve => setTimeout(resolve, current.record.pollIntervalMs))
      // Its instance may die while this waits: then it is taken over here, like on every read.
      current = await this.find(found.record.id, caller, takeOver) ?? current
      // The one waiting holds the task: a question of the handler run again here may go out.
      if (current.local) await this.markSeen(current)
    }
    if (current.local) await Promise.race([this.runner.settled(current.record), new Promise(resolve => signal.addEventListener('abort', resolve, { once: true }))])
    return current.record
  }

  private receive(message: TaskMessage): void {
    const record = this.runner.table.find(message.taskId)
    if (!record) return
    if (message.kind === 'update') this.runner.answer(record, message.responses)
    else if (message.kind === 'cancel') this.runner.cancel(record)
    else this.runner.seen.mark(record.id)
  }
}
