import type { TaskOwner, TaskRecord } from './record'
import { isTerminal } from './record'

/** The bounds of an endpoint's tasks (`mcp.tasks`). */
export interface TaskLimits {
  /** How long a task is kept from its creation when the client asks nothing (2025-11-25 `ttl`). */
  ttlMs: number
  /** The longest a client may ask for. */
  maxTtlMs: number
  /** How often clients are told to poll. */
  pollIntervalMs: number
  /** Most tasks one principal (or anonymous caller) keeps at once, ended ones included until they expire. */
  maxPerPrincipal: number
  /** Largest result (JSON bytes) a task keeps; a larger one ends the task `failed`. */
  maxResultBytes: number
}

/** A task could not be created: the caller holds too many. Its message names the option. */
export class TaskLimitError extends Error {
  override readonly name = 'TaskLimitError'
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
 * const record = table.create({ principal: 'ana' }, 'modern', 'deploy', { arguments: {} })
 * table.get(record.id, { principal: 'ana' }) // the record
 * table.get(record.id, { principal: 'bob' }) // undefined
 * ```
 */
export class TaskTable {
  readonly limits: TaskLimits
  private readonly records = new Map<string, TaskRecord>()
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>()
  private readonly counts = new Map<string, number>()
  private readonly expiries = new Set<TaskExpiry>()

  constructor(limits: TaskLimits) {
    this.limits = limits
  }

  /** Creates a `working` task for `owner`, kept `ttlMs` (bounded by `maxTtlMs`). Throws {@link TaskLimitError} at the owner's cap. */
  create(owner: TaskOwner, era: TaskRecord['era'], tool: string, call: TaskRecord['call'], requestedTtlMs?: number): TaskRecord {
    const held = this.counts.get(owner.principal) ?? 0
    if (held >= this.limits.maxPerPrincipal) {
      throw new TaskLimitError(`This caller already holds ${held} tasks, the most allowed (mcp.tasks.maxPerPrincipal = ${this.limits.maxPerPrincipal}). Wait for some to end and expire, or cancel them; the server's operator can raise the limit.`)
    }
    const now = Date.now()
    const ttlMs = Math.min(Math.max(1, Math.floor(requestedTtlMs ?? this.limits.ttlMs)), this.limits.maxTtlMs)
    const record: TaskRecord = {
      id: crypto.randomUUID(),
      owner: { principal: owner.principal, ...(owner.sessionId !== undefined && { sessionId: owner.sessionId }) },
      era,
      tool,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      pollIntervalMs: this.limits.pollIntervalMs,
      questions: {},
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
    this.counts.set(record.owner.principal, (this.counts.get(record.owner.principal) ?? 0) + 1)
    const timer = setTimeout(() => this.expire(record.id), Math.max(1, record.createdAt + record.ttlMs - Date.now()))
    // A waiting task must not keep a process alive that is otherwise done.
    if (typeof timer === 'object' && 'unref' in timer) timer.unref()
    this.timers.set(record.id, timer)
  }

  /** The task `id` if `caller` owns it; `undefined` for an unknown, expired or foreign id alike. */
  get(id: string, caller: TaskOwner): TaskRecord | undefined {
    const record = this.records.get(id)
    if (!record || record.owner.principal !== caller.principal || record.owner.sessionId !== caller.sessionId) return undefined
    return record
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
    return [...this.records.values()].filter(record => record.owner.principal === caller.principal && record.owner.sessionId === caller.sessionId)
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
    const held = (this.counts.get(record.owner.principal) ?? 1) - 1
    if (held > 0) this.counts.set(record.owner.principal, held)
    else this.counts.delete(record.owner.principal)
  }
}
