import { jsonBytes, utf8Bytes } from '../../common/byte-length'
import type { McpServerConfig } from '../../common/config'
import { callerKeyOf } from '../../common/context'
import type { TaskCallRecord, TaskOwner, TaskRecord } from './record'
import { isTerminal, ownsTask } from './record'

/**
 * The bounds of an endpoint's tasks: `mcp.tasks` as resolved (its options are documented on
 * `McpServerConfig['tasks']`, the one place they are typed), without `background`, which says
 * where tasks run rather than how many are kept.
 *
 * @example
 * ```ts
 * const runtime = createTaskRuntime(useRuntimeConfig().mcp.tasks)
 * ```
 */
export type TaskLimits = Omit<McpServerConfig['tasks'], 'background'>

/** A task could not be created: the caller holds too many, or the server does. Its message names the option. */
export class TaskLimitError extends Error {
  override readonly name = 'TaskLimitError'
}

/**
 * A task could not be created: its call is larger than a task keeps. Its message names the option.
 *
 * @example
 * ```ts
 * try { callRecordOf(limits, args, capabilities) }
 * catch (error) { if (error instanceof TaskSizeError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message) }
 * ```
 */
export class TaskSizeError extends Error {
  override readonly name = 'TaskSizeError'
}

/**
 * Why `response` is too large to be kept as an answer within `limits`, or `undefined`.
 *
 * @example
 * ```ts
 * const problem = answerTooLarge(table.limits, response)
 * if (problem) throw new ProtocolError(ProtocolErrorCode.InvalidParams, problem)
 * ```
 */
export function answerTooLarge(limits: TaskLimits, response: unknown): string | undefined {
  const bytes = jsonBytes(response)
  if (bytes <= limits.maxAnswerBytes) return undefined
  return `the answer is ${bytes} bytes, more than a task keeps (mcp.tasks.maxAnswerBytes = ${limits.maxAnswerBytes}). Answer with less, or ask the server's operator to raise the limit`
}

/**
 * What a per-caller cap counts `owner` by: the principal, or the client address when anonymous
 * (the key legacy sessions are counted by).
 *
 * @example
 * ```ts
 * capKeyOf({ principal: '', address: '10.0.0.1' }) // 'address:10.0.0.1'
 * ```
 */
export function capKeyOf(owner: TaskOwner): string {
  return owner.address === undefined ? callerKeyOf(owner.principal, '') : callerKeyOf(undefined, owner.address)
}

/**
 * What a task keeps of a call with `args` (as sent) and `capabilities`, or a {@link TaskSizeError}
 * naming the option either is over.
 *
 * @example
 * ```ts
 * const call = callRecordOf(table.limits, request.params.arguments ?? {}, run.capabilities)
 * ```
 */
export function callRecordOf(limits: TaskLimits, args: Record<string, unknown>, capabilities: Record<string, unknown> | undefined): TaskCallRecord {
  const text = JSON.stringify(args)
  const argumentBytes = utf8Bytes(text)
  if (argumentBytes > limits.maxArgumentBytes) {
    throw new TaskSizeError(`The call's arguments are ${argumentBytes} bytes as JSON, more than a task keeps (mcp.tasks.maxArgumentBytes = ${limits.maxArgumentBytes}): a task keeps them for the instance that may take it over. Send less (a reference to the data), call the tool without a task, or ask the server's operator to raise the limit.`)
  }
  if (capabilities !== undefined) {
    const capabilityBytes = jsonBytes(capabilities)
    if (capabilityBytes > limits.maxCapabilitiesBytes) {
      throw new TaskSizeError(`The client's capabilities are ${capabilityBytes} bytes as JSON, more than a task keeps (mcp.tasks.maxCapabilitiesBytes = ${limits.maxCapabilitiesBytes}). Declare less, or ask the server's operator to raise the limit.`)
    }
  }
  return { arguments: text, ...(capabilities !== undefined && { capabilities }) }
}

/** Counters for leak tests; not part of the public API. */
export const taskCounters = { records: 0 }

/** What a table asks of what runs a task when its lifetime is over. */
export type TaskExpiry = (record: TaskRecord) => void

/**
 * An endpoint's tasks in this process: the records, their owners' counts and their expiry. Every
 * read goes through the owner check, so a task id alone reveals nothing.
 *
 * @example
 * ```ts
 * const table = new TaskTable(limits)
 * const record = table.create({ principal: 'ana' }, 'modern', 'deploy', { arguments: '{}' })
 * table.get(record.id, { principal: 'ana' }) // the record
 * table.get(record.id, { principal: 'bob' }) // undefined
 * ```
 */
export class TaskTable {
  readonly limits: TaskLimits
  private readonly records = new Map<string, TaskRecord>()
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>()
  /** Each caller's tasks by cap key (ended ones too, until they expire or are forgotten: only running ones count). */
  private readonly byCaller = new Map<string, Set<string>>()
  private readonly expiries = new Set<TaskExpiry>()

  /** An ended task keeps its answers: `nuxi dev`, where the DevTools tab shows them. */
  readonly keepsEndedAnswers: boolean

  constructor(limits: TaskLimits, options: { keepEndedAnswers?: boolean } = {}) {
    this.limits = limits
    this.keepsEndedAnswers = options.keepEndedAnswers === true
  }

  /**
   * Creates a `working` task for `owner`, kept `ttlMs` (bounded by `maxTtlMs`, and for an
   * anonymous caller by `maxAnonymousTtlMs`: cut, not refused; the task says what it got). A
   * client's shorter `ttl` is raised to `minTtlMs` (within those bounds): the task may ask a
   * person, and a person needs minutes where a client asks seconds.
   * Throws {@link TaskLimitError} at the owner's cap or the table's.
   */
  create(owner: TaskOwner, era: TaskRecord['era'], tool: string, call: TaskRecord['call'], requestedTtlMs?: number): TaskRecord {
    const key = capKeyOf(owner)
    const held = this.runningOf(key)
    if (held >= this.limits.maxPerPrincipal) {
      throw new TaskLimitError(`This caller already has ${held} tasks running, the most allowed (mcp.tasks.maxPerPrincipal = ${this.limits.maxPerPrincipal}). Wait for some to end, or cancel them: an ended task no longer counts. The server's operator can raise the limit.`)
    }
    // Ended tasks never refuse a new one: one caller keeps at most maxPerPrincipal of them, and
    // at mcp.tasks.max the oldest ended one is forgotten (before its ttl) to make room.
    const ended = [...this.byCaller.get(key) ?? []].filter(id => this.isEnded(id))
    for (const id of ended.slice(0, Math.max(0, ended.length - this.limits.maxPerPrincipal + 1))) this.expire(id)
    if (this.records.size >= this.limits.max) {
      const oldest = [...this.records.keys()].find(id => this.isEnded(id))
      if (oldest !== undefined) this.expire(oldest)
    }
    if (this.records.size >= this.limits.max) {
      throw new TaskLimitError(`The server runs ${this.records.size} tasks, the most allowed (mcp.tasks.max = ${this.limits.max}). Try again later; the server's operator can raise the limit.`)
    }
    const now = Date.now()
    const longest = owner.address === undefined ? this.limits.maxTtlMs : Math.min(this.limits.maxTtlMs, this.limits.maxAnonymousTtlMs)
    // The floor never exceeds what a client that asks nothing gets (`ttlMs`).
    const wanted = requestedTtlMs === undefined ? this.limits.ttlMs : Math.max(Math.floor(requestedTtlMs), Math.min(this.limits.minTtlMs, this.limits.ttlMs))
    const ttlMs = Math.min(Math.max(1, wanted), longest)
    const record: TaskRecord = {
      id: crypto.randomUUID(),
      owner: { principal: owner.principal, ...(owner.sessionId !== undefined && { sessionId: owner.sessionId }), ...(owner.address !== undefined && { address: owner.address }) },
      era,
      tool,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      pollIntervalMs: this.limits.pollIntervalMs,
      questions: {},
      digests: {},
      answers: {},
      steps: {},
      call,
    }
    this.hold(record)
    return record
  }

  /** Holds a task another instance created (this one takes it over), until its ttl is over. */
  adopt(record: TaskRecord): void {
    if (!this.records.has(record.id)) this.hold(record)
  }

  private hold(record: TaskRecord): void {
    this.records.set(record.id, record)
    taskCounters.records += 1
    const key = capKeyOf(record.owner)
    const mine = this.byCaller.get(key) ?? new Set()
    mine.add(record.id)
    this.byCaller.set(key, mine)
    const timer = setTimeout(() => this.expire(record.id), Math.max(1, record.createdAt + record.ttlMs - Date.now()))
    // A waiting task must not keep a process alive that is otherwise done.
    if (typeof timer === 'object' && 'unref' in timer) timer.unref()
    this.timers.set(record.id, timer)
  }

  /** Whether task `id` is held and ended. */
  private isEnded(id: string): boolean {
    const record = this.records.get(id)
    return record !== undefined && isTerminal(record.status)
  }

  /** How many of the tasks counted under `key` still run: an ended task frees its place at once. */
  private runningOf(key: string): number {
    let running = 0
    for (const id of this.byCaller.get(key) ?? []) {
      const record = this.records.get(id)
      if (record && !isTerminal(record.status)) running += 1
    }
    return running
  }

  /** The task `id` if `caller` owns it; `undefined` for an unknown, expired or foreign id alike. */
  get(id: string, caller: TaskOwner): TaskRecord | undefined {
    const record = this.records.get(id)
    return record && ownsTask(record, caller) ? record : undefined
  }

  /** Task `id` whoever owns it (what another instance hands to the one running it). */
  find(id: string): TaskRecord | undefined {
    return this.records.get(id)
  }

  /** Forgets task `id` at once, before anyone saw it (it could not be admitted). */
  discard(id: string): void {
    const timer = this.timers.get(id)
    if (timer === undefined) return
    clearTimeout(timer)
    this.timers.delete(id)
    this.forget(id)
  }

  /** The tasks `caller` owns, oldest first. */
  list(caller: TaskOwner): TaskRecord[] {
    return [...this.records.values()].filter(record => ownsTask(record, caller))
  }

  /** Every task, oldest first (the DevTools tab, in `nuxi dev`). */
  all(): TaskRecord[] {
    return [...this.records.values()]
  }

  /** The tasks not yet ended (for a session that closes, or a server that stops). */
  running(): TaskRecord[] {
    return [...this.records.values()].filter(record => !isTerminal(record.status))
  }

  /** How many tasks the table holds (leak tests). */
  get size(): number {
    return this.records.size
  }

  /** Calls `listener` with each task whose lifetime is over, just before it is forgotten. */
  onExpire(listener: TaskExpiry): () => void {
    this.expiries.add(listener)
    return () => this.expiries.delete(listener)
  }

  /** Forgets every task (the endpoint closes). */
  clear(): void {
    for (const id of [...this.records.keys()]) this.expire(id)
  }

  private expire(id: string): void {
    const record = this.records.get(id)
    if (!record) return
    for (const listener of this.expiries) listener(record)
    clearTimeout(this.timers.get(id))
    this.timers.delete(id)
    this.forget(id)
  }

  private forget(id: string): void {
    const record = this.records.get(id)
    if (!record) return
    this.records.delete(id)
    taskCounters.records -= 1
    const key = capKeyOf(record.owner)
    const mine = this.byCaller.get(key)
    mine?.delete(id)
    if (mine?.size === 0) this.byCaller.delete(key)
  }
}
