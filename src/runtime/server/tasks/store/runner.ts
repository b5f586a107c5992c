import type { LoggingLevel } from '@modelcontextprotocol/server'
import type { ParkedQuestion, ParkedRun } from '../../elicitation/run'
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'
import { McpElicitationError } from '../../elicitation/error'
import { isTerminal, moveTask, settleQuestion } from './record'
import type { TaskError, TaskRecord, TaskStatus } from './record'
import { jsonBytes } from '../../common/byte-length'
import { answerTooLarge } from './table'
import type { TaskTable } from './table'
import { SeenTasks } from './seen'
import { asElicitationError, messageOf, progressMessage, wireKeyOf } from './questions'

/** How a task's handler ended: the call's result, or the JSON-RPC error the call would have answered. */
export type TaskEnd = { result: Record<string, unknown> } | { error: TaskError }

/** Hears a task's change: the record as it is now, and the status it had. */
export type TaskWatcher = (record: TaskRecord, from: TaskStatus) => void

/** What runs in this process for one task. */
interface LiveTask {
  controller: AbortController
  /** Modern questions waiting for `tasks/update`, by wire key. */
  waiters: Map<string, { resolve: (response: unknown) => void, reject: (error: unknown) => void }>
  /** Every wire key handed out so far: keys are unique over a task's lifetime (2026-07-28). */
  used: Set<string>
  settled: Promise<void>
  markSettled: () => void
  outlet?: TaskOutlet
}

/**
 * Runs an endpoint's tasks in this process: a handler detached from its request, whose questions
 * park the task in `input_required` until the answer comes, and whose end becomes the task's
 * result. It knows no HTTP and no session: a legacy task's questions leave through its `TaskOutlet`.
 *
 * @example
 * ```ts
 * const runner = new TaskRunner(table)
 * const parked = runner.launch(record)
 * runner.settleWith(record, runHandler(parked))
 * ```
 */
export class TaskRunner {
  readonly table: TaskTable
  private readonly live = new Map<string, LiveTask>()
  private readonly watchers = new Set<TaskWatcher>()
  private closing = false
  /** The tasks whose client has shown it holds them (legacy questions wait for that). */
  readonly seen = new SeenTasks()
  /** Writes a record where every instance reads it, before a `once()` step goes on (several instances). */
  persist: (record: TaskRecord) => Promise<void> = async () => {}

  constructor(table: TaskTable) {
    this.table = table
    table.onExpire((record) => {
      // A task's lifetime is bounded: one still running when it is over is stopped.
      this.move(record, 'failed', `The task ran out of its time to live (${record.ttlMs} ms) and was stopped.`)
      this.stop(record.id, new McpElicitationError('cancelled', 'The task ran out of its time to live.'))
      this.seen.forget(record.id)
    })
  }

  /**
   * Starts running `record` here and returns the parked run its handler asks through. `settled`:
   * the keys of questions answered before the task began, which later questions must not reuse.
   */
  launch(record: TaskRecord, outlet?: TaskOutlet, settled: string[] = []): ParkedRun {
    let markSettled = () => {}
    const ended = new Promise<void>((resolve) => {
      markSettled = resolve
    })
    const live: LiveTask = { controller: new AbortController(), waiters: new Map(), used: new Set(settled), settled: ended, markSettled, ...(outlet && { outlet }) }
    this.live.set(record.id, live)
    const { signal } = live.controller
    return {
      signal,
      ask: async (question) => {
        if (isTerminal(record.status)) throw new McpElicitationError('cancelled', `The task ended (${record.status}) before it could ask.`)
        let wireKey = wireKeyOf(live.used, question)
        // Run again after a takeover: an answer given before (or since) to this very question is
        // not asked again. One given to another question under this key (a lookup outside
        // once() found something else) is not its answer: this one is asked, under a new key.
        const kept = Object.hasOwn(record.answers, wireKey) ? record.answers[wireKey] : undefined
        if (kept?.q === question.digest) return kept.r
        // Likewise a question still open under this key from before the takeover that is not this
        // one: it is dropped, so a late answer meant for it meets a key no longer outstanding
        // (ignored, as the spec says) instead of answering this one.
        const stale = Object.hasOwn(record.digests, wireKey) && record.digests[wireKey] !== question.digest
        if (stale) {
          delete record.questions[wireKey]
          delete record.digests[wireKey]
        }
        if (kept || stale) wireKey = wireKeyOf(live.used, question)
        record.questions[wireKey] = question.request
        record.digests[wireKey] = question.digest
        this.move(record, 'input_required', messageOf(question))
        try {
          const response = outlet
            ? await outlet.ask(record, { ...question, wireKey }, signal)
            : await new Promise<unknown>((resolve, reject) => {
              live.waiters.set(wireKey, { resolve, reject })
            })
          // 2026-07-28's tasks/update refuses a larger one first; a legacy client's comes here.
          const tooLarge = answerTooLarge(this.table.limits, response)
          if (tooLarge) throw new McpElicitationError('invalid-response', `The client's answer to "${wireKey}" was not kept: ${tooLarge}.`)
          // An ended task keeps no answers (only a takeover reads them).
          if (!isTerminal(record.status)) record.answers[wireKey] = { q: question.digest, r: response }
          return response
        }
        catch (error) {
          throw asElicitationError(error, signal)
        }
        finally {
          live.waiters.delete(wireKey)
          delete record.questions[wireKey]
          delete record.digests[wireKey]
          if (record.status === 'input_required' && Object.keys(record.questions).length === 0) this.move(record, 'working')
        }
      },
      once: (key, step) => this.once(record, key, step),
      log: async (level, data, logger) => {
        // A line after the end would be about nothing the client can still see.
        if (outlet && !isTerminal(record.status)) await outlet.log(record, level, data, logger)
      },
      progress: async (progress, total, message) => {
        if (record.status === 'working') this.move(record, 'working', progressMessage(progress, total, message))
      },
    }
  }

  /** Ends `record` with what `work` ends with, unless it ended before (cancelled, expired). */
  settleWith(record: TaskRecord, work: Promise<TaskEnd>): void {
    work.then(
      end => this.end(record, end),
      (error: unknown) => this.end(record, { error: { code: -32603, message: error instanceof Error ? error.message : String(error) } }),
    )
  }

  /** Gives a modern task the answers of `tasks/update`; keys not outstanding are ignored (spec). */
  answer(record: TaskRecord, responses: Record<string, unknown>): void {
    const live = this.live.get(record.id)
    if (!live) return
    for (const [key, response] of Object.entries(responses)) {
      const waiter = live.waiters.get(key)
      if (!waiter) {
        // Asked before a takeover, and not asked again yet: kept for when the handler gets there.
        if (Object.hasOwn(record.questions, key)) settleQuestion(record, key, response)
        continue
      }
      // Settled here, not when the handler resumes: a `tasks/get` right after the ack must not list it.
      live.waiters.delete(key)
      delete record.questions[key]
      delete record.digests[key]
      waiter.resolve(response)
    }
    if (record.status === 'input_required' && Object.keys(record.questions).length === 0) this.move(record, 'working')
    // A partial answer changes what the task waits on without changing its status.
    else this.tell(record, record.status)
  }

  /** Cancels `record`: `cancelled` at once, its handler's signal aborted. Returns whether it moved. */
  cancel(record: TaskRecord, message = 'The client cancelled the task.'): boolean {
    if (!this.move(record, 'cancelled', message)) return false
    this.stop(record.id, new McpElicitationError('cancelled', `The task was cancelled: ${message}`))
    return true
  }

  /** Resolves once `record` has ended (at once for an ended one, or one not running here). */
  async settled(record: TaskRecord): Promise<void> {
    await this.live.get(record.id)?.settled
  }

  /** Calls `watcher` after each change of a task's status (or, while it works, its status message). */
  watch(watcher: TaskWatcher): () => void {
    this.watchers.add(watcher)
    return () => this.watchers.delete(watcher)
  }

  /** Forgets `record` as if it had never been: the call was answered directly, so no client holds its id. */
  withdraw(record: TaskRecord): void {
    this.stop(record.id)
    this.seen.forget(record.id)
    this.table.discard(record.id)
  }

  /** Whether `record`'s handler runs in this process. */
  isRunningHere(record: TaskRecord): boolean {
    return this.live.has(record.id)
  }

  private move(record: TaskRecord, status: TaskStatus, statusMessage?: string): boolean {
    if (this.closing) return false
    const from = record.status
    if (!moveTask(record, status, statusMessage, this.table.keepsEndedAnswers)) return false
    this.tell(record, from)
    return true
  }

  private tell(record: TaskRecord, from: TaskStatus): void {
    // Closing: what the handlers do as they are stopped is not the tasks' end (see `shutdown`).
    if (this.closing) return
    for (const watcher of this.watchers) watcher(record, from)
    // Nothing waits on this notification (a client must not rely on it: it polls), so it is sent
    // and left to go; one that cannot go is not the task's failure.
    const outlet = this.live.get(record.id)?.outlet
    if (outlet) outlet.status(record).catch(() => {})
  }

  /**
   * Stops every handler this process runs without ending their tasks: the server is going away
   * (a deploy), not the tasks. Shared, their last state stays as it was, and another instance
   * takes them over on the next request about them; alone, they go with the process.
   */
  shutdown(): void {
    this.closing = true
    for (const id of [...this.live.keys()]) this.stop(id, new McpElicitationError('cancelled', 'The server is shutting down.'))
  }

  /**
   * A `once()` step: its result when it ran before (a takeover runs the handler again), claimed
   * where every instance sees it before it runs. A step claimed by an instance that died in it
   * may or may not have run: the task ends, naming it.
   */
  private async once<T>(record: TaskRecord, key: string, step: () => T | Promise<T>): Promise<T> {
    const known = Object.hasOwn(record.steps, key) ? record.steps[key] : undefined
    // The value came back from JSON, as a step's result does on modern rounds (documented).
    if (known && 'done' in known) return known.v as T
    if (known) throw new ProtocolError(ProtocolErrorCode.InternalError, `The task's step once("${key}") was running when the instance that ran it stopped: it may or may not have happened, so the task cannot go on. Check its effect, then call the tool again.`)
    record.steps[key] = { running: true }
    await this.persist(record)
    const value = await step()
    // A handler still running after its task ended (cancelled): its steps are no longer kept.
    if (isTerminal(record.status)) return value
    record.steps[key] = { done: true, ...(value !== undefined && { v: value }) }
    await this.persist(record)
    return value
  }

  private end(record: TaskRecord, end: TaskEnd): void {
    if (this.closing) return
    if ('result' in end) {
      const bytes = jsonBytes(end.result)
      const limit = this.table.limits.maxResultBytes
      if (bytes > limit) {
        end = { error: { code: -32603, message: `The tool's result is ${bytes} bytes, more than a task keeps (mcp.tasks.maxResultBytes = ${limit}). Return less (a link to the data), or raise the limit.` } }
      }
    }
    // 2025-11-25 counts a tool error (`isError`) as `failed`; 2026-07-28 as `completed`, with the result.
    const failed = 'error' in end || (record.era === 'legacy' && end.result.isError === true)
    if (this.move(record, failed ? 'failed' : 'completed', 'error' in end ? end.error.message : undefined)) {
      if ('error' in end) record.error = end.error
      else record.result = end.result
    }
    this.stop(record.id)
  }

  private stop(id: string, reason?: McpElicitationError): void {
    const live = this.live.get(id)
    if (!live) return
    this.live.delete(id)
    const why = reason ?? new McpElicitationError('cancelled', 'The task ended.')
    for (const waiter of live.waiters.values()) waiter.reject(why)
    live.controller.abort(why)
    live.markSettled()
  }
}

/**
 * How a legacy task reaches its session (pushed on an open `tasks/result` or on the GET stream):
 * `ask` resolves with the client's raw answer to a question; `log` sends one of the handler's log
 * lines; `status` tells a change of the task's status. A task without an outlet (2026-07-28)
 * hands its questions out in `tasks/get`, and its log lines reach no client: the extension gives
 * a task no channel for them.
 */
export interface TaskOutlet {
  ask: (record: TaskRecord, question: ParkedQuestion & { wireKey: string }, signal: AbortSignal) => Promise<unknown>
  log: (record: TaskRecord, level: LoggingLevel, data: unknown, logger?: string) => Promise<void>
  status: (record: TaskRecord) => Promise<void>
}
