import type { McpSharedState } from '../../cluster/shared-state'
import { MailRefusal, defineMailKind, mailboxOf } from '../../cluster/mailbox'
import type { Mailbox } from '../../cluster/mailbox'
import { isRecord } from '../../common/is-record'
import type { TaskAnswer, TaskCallRecord, TaskRecord, TaskStatus } from './record'
import { capKeyOf } from './table'
import type { TaskLimits } from './table'

/**
 * A task record as every instance reads it: with the instance that runs its handler, and without
 * its call, which is written once apart ({@link SharedTasks.readCall}): every change rewrites the
 * record, and the arguments need not go with each.
 *
 * @example
 * ```ts
 * const copy: SharedTaskRecord | undefined = await shared.read(id)
 * if (copy && await shared.isGone(copy.runner)) takeOver(copy)
 * ```
 */
export interface SharedTaskRecord extends Omit<TaskRecord, 'call'> {
  runner: string
}

/** What one instance asks of the instance that runs a task: a letter of the mailbox ({@link TASK_MAIL}). */
export type TaskMessage =
  | { kind: 'update', taskId: string, responses: Record<string, unknown> }
  | { kind: 'cancel', taskId: string }
  | { kind: 'seen', taskId: string }

const STATUSES: ReadonlySet<string> = new Set<TaskStatus>(['working', 'input_required', 'completed', 'failed', 'cancelled'])

/** The ranked set that counts one caller's running tasks against `mcp.tasks.maxPerPrincipal`, across instances. */
function ownerKey(record: Pick<TaskRecord, 'owner'>): string {
  return `tasks-of:${encodeURIComponent(capKeyOf(record.owner))}`
}

/** The ranked set that counts every running task against `mcp.tasks.max`, across instances. */
const ALL_TASKS = 'tasks-all'

/** The ranked set of one caller's ended tasks, oldest first: at most `mcp.tasks.maxPerPrincipal` are kept. */
function endedKey(record: Pick<TaskRecord, 'owner'>): string {
  return `tasks-ended-of:${encodeURIComponent(capKeyOf(record.owner))}`
}

/** The ranked set of every ended task, oldest first: at most `mcp.tasks.max` are kept. */
const ENDED_TASKS = 'tasks-ended'

function isStatus(value: unknown): value is TaskStatus {
  return typeof value === 'string' && STATUSES.has(value)
}

/** `text` as JSON, or `undefined` when it is not JSON (not written by this module). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  }
  catch {
    return undefined
  }
}

/** A record read back from the shared store, checked field by field (another version may have written it). */
function parseRecord(text: string): SharedTaskRecord | undefined {
  const value = parseJson(text)
  if (!isRecord(value) || typeof value.id !== 'string' || typeof value.runner !== 'string' || typeof value.tool !== 'string') return undefined
  const { owner, questions } = value
  if (!isRecord(owner) || typeof owner.principal !== 'string' || !isRecord(questions) || !isStatus(value.status)) return undefined
  if (value.era !== 'legacy' && value.era !== 'modern') return undefined
  if (typeof value.createdAt !== 'number' || typeof value.lastUpdatedAt !== 'number' || typeof value.ttlMs !== 'number' || typeof value.pollIntervalMs !== 'number') return undefined
  const requests: TaskRecord['questions'] = {}
  for (const [key, request] of Object.entries(questions)) {
    if (!isRecord(request) || (request.method !== 'elicitation/create' && request.method !== 'sampling/createMessage' && request.method !== 'roots/list')) return undefined
    requests[key] = { method: request.method, ...(isRecord(request.params) && { params: request.params }) }
  }
  const steps: TaskRecord['steps'] = {}
  for (const [key, step] of Object.entries(isRecord(value.steps) ? value.steps : {})) {
    if (isRecord(step) && step.done === true) steps[key] = { done: true, ...(step.v !== undefined && { v: step.v }) }
    else if (isRecord(step) && step.running === true) steps[key] = { running: true }
  }
  const digests: TaskRecord['digests'] = {}
  for (const [key, digest] of Object.entries(isRecord(value.digests) ? value.digests : {})) {
    if (typeof digest === 'string') digests[key] = digest
  }
  const error = isRecord(value.error) && typeof value.error.code === 'number' && typeof value.error.message === 'string' ? { code: value.error.code, message: value.error.message, ...(value.error.data !== undefined && { data: value.error.data }) } : undefined
  return {
    id: value.id,
    runner: value.runner,
    owner: { principal: owner.principal, ...(typeof owner.sessionId === 'string' && { sessionId: owner.sessionId }), ...(typeof owner.address === 'string' && { address: owner.address }) },
    era: value.era,
    tool: value.tool,
    status: value.status,
    ...(typeof value.statusMessage === 'string' && { statusMessage: value.statusMessage }),
    createdAt: value.createdAt,
    lastUpdatedAt: value.lastUpdatedAt,
    ttlMs: value.ttlMs,
    pollIntervalMs: value.pollIntervalMs,
    questions: requests,
    digests,
    answers: answersOf(value.answers),
    steps,
    ...(isRecord(value.result) && { result: value.result }),
    ...(error && { error }),
    ...(value.job === true && { job: true }),
  }
}

/** `value` as kept answers, each with its question's digest; one without (another version's) is left out: its question is asked again. */
function answersOf(value: unknown): Record<string, TaskAnswer> {
  const answers: Record<string, TaskAnswer> = {}
  for (const [key, answer] of Object.entries(isRecord(value) ? value : {})) {
    if (isRecord(answer) && typeof answer.q === 'string' && Object.hasOwn(answer, 'r')) answers[key] = { q: answer.q, r: answer.r }
  }
  return answers
}

/** A call read back from the shared store, or `undefined` (not written by this version). */
function parseCall(text: string): TaskCallRecord | undefined {
  const value = parseJson(text)
  if (!isRecord(value) || typeof value.arguments !== 'string') return undefined
  return { arguments: value.arguments, ...(isRecord(value.capabilities) && { capabilities: value.capabilities }) }
}

/**
 * The letters for the instance that runs a task (cluster/mailbox.ts), read back field by field.
 *
 * @example
 * ```ts
 * await mailbox.send(runner, TASK_MAIL, { kind: 'cancel', taskId })
 * ```
 */
export const TASK_MAIL = defineMailKind<TaskMessage>('task', (body) => {
  if (typeof body.taskId !== 'string') return new MailRefusal('taskId', 'is not a string')
  if (body.kind === 'update') return isRecord(body.responses) ? { kind: 'update', taskId: body.taskId, responses: body.responses } : new MailRefusal('responses', 'is not an object')
  if (body.kind === 'cancel' || body.kind === 'seen') return { kind: body.kind, taskId: body.taskId }
  return new MailRefusal('kind', 'is none of update, cancel, seen')
})

/**
 * Keeps `answer` to question `key` of task `taskId` for `ttlMs`, where the instance that takes the
 * task over reads it ({@link SharedTasks.keptRequests}): the answer is not asked for again, when
 * the handler run again asks the same question (`answer.q`, its digest).
 *
 * @example
 * ```ts
 * await keepAnswer(shared, note.taskId, note.key, { q: note.q, r: { action: 'accept', content: { ok: true } } }, 60_000)
 * ```
 */
export function keepAnswer(shared: McpSharedState, taskId: string, key: string, answer: TaskAnswer, ttlMs: number): Promise<unknown> {
  return shared.hashSet(`task-answers:${taskId}`, key, JSON.stringify(answer), ttlMs)
}

/**
 * An endpoint's tasks in the state several instances share (`NUXT_MCP_REDIS_URL`): each record
 * kept under its id until its ttl is over, written by the instance that runs it after every
 * change (in order, the newest state last), the per-principal cap counted across instances, and
 * the mailbox (cluster/mailbox.ts) through which the others hand it answers, cancellations and "seen" notes.
 *
 * @example
 * ```ts
 * const sharing = new SharedTasks(state)
 * await sharing.listen(message => handle(message))
 * await sharing.save(record)
 * ```
 */
export class SharedTasks {
  private readonly shared: McpSharedState
  private readonly writes = new Map<string, Promise<void>>()
  /** This instance's mailbox, shared with the endpoint's sessions: what the others hand the tasks run here. */
  readonly mailbox: Mailbox

  constructor(shared: McpSharedState) {
    this.shared = shared
    this.mailbox = mailboxOf(shared)
  }

  get instanceId(): string {
    return this.shared.instanceId
  }

  /** Hears what other instances ask of the tasks this one runs. */
  async listen(handler: (message: TaskMessage) => void): Promise<void> {
    this.mailbox.receive(TASK_MAIL, message => handler(message))
    await this.mailbox.listening
  }

  /**
   * Counts `record` against its caller's cap and the endpoint's across instances: the name of the
   * option whose cap is reached, or `undefined` when it is counted. Each set is kept as long as
   * the longest task it may hold, so a short task does not take its longer ones' places with it.
   */
  async admit(record: TaskRecord, limits: TaskLimits): Promise<'maxPerPrincipal' | 'max' | undefined> {
    const expires = record.createdAt + record.ttlMs
    const caps = [{ key: ownerKey(record), max: limits.maxPerPrincipal }, { key: ALL_TASKS, max: limits.max }]
    const full = await this.shared.rankWithin(caps, record.id, expires, limits.maxTtlMs, Date.now())
    return full < 0 ? undefined : full === 0 ? 'maxPerPrincipal' : 'max'
  }

  /**
   * `record` ended: frees its places under its caller's cap and `mcp.tasks.max`, removes what only
   * a takeover reads (its call, the answers kept for it), and keeps it among the ended tasks,
   * at most `mcp.tasks.maxPerPrincipal` of its caller's and `mcp.tasks.max` in all: beyond either,
   * the oldest ended ones are forgotten, so ended tasks never refuse a new one.
   */
  async release(record: Pick<TaskRecord, 'id' | 'owner'>, limits: TaskLimits): Promise<void> {
    const now = Date.now()
    // Ended tasks older than the longest ttl have expired: they hold no place in either set.
    const minScore = now - limits.maxTtlMs
    await Promise.all([
      this.shared.unrank(ownerKey(record), record.id),
      this.shared.unrank(ALL_TASKS, record.id),
      this.shared.delete(`task-call:${record.id}`),
      this.shared.delete(`task-answers:${record.id}`),
      this.shared.rank(endedKey(record), record.id, now, limits.maxTtlMs),
    ])
    await this.forgetOldest(endedKey(record), limits.maxPerPrincipal, minScore)
    // The set of every ended task is read whole only when it is full: most ends cost one step.
    if (await this.shared.rankWithin([{ key: ENDED_TASKS, max: limits.max }], record.id, now, limits.maxTtlMs, minScore) >= 0) {
      await this.forgetOldest(ENDED_TASKS, limits.max - 1, minScore)
      await this.shared.rank(ENDED_TASKS, record.id, now, limits.maxTtlMs)
    }
  }

  /** Forgets the oldest ended tasks of the ranked set `key` beyond its newest `keep`, their records with them. */
  private async forgetOldest(key: string, keep: number, minScore: number): Promise<void> {
    const members = await this.shared.ranked(key, minScore)
    for (const id of members.slice(0, Math.max(0, members.length - keep))) {
      await Promise.all([this.shared.delete(`task:${id}`), this.shared.unrank(key, id)])
    }
  }

  /** Writes what `record`'s call was, once, for an instance that takes it over. */
  async saveCall(record: TaskRecord): Promise<void> {
    const left = record.createdAt + record.ttlMs - Date.now()
    if (left > 0) await this.shared.put(`task-call:${record.id}`, JSON.stringify(record.call), left)
  }

  /** What task `id`'s call was ({@link saveCall}), or `undefined` (expired, unreadable). */
  async readCall(id: string): Promise<TaskCallRecord | undefined> {
    const text = await this.shared.get(`task-call:${id}`)
    return text === undefined ? undefined : parseCall(text)
  }

  /**
   * Writes `record` as it is when its turn comes: writes of one task never overtake each other,
   * so the shared copy ends with the newest state.
   */
  save(record: TaskRecord, runner = this.instanceId): Promise<void> {
    const previous = this.writes.get(record.id) ?? Promise.resolve()
    const write = previous.then(async () => {
      const left = record.createdAt + record.ttlMs - Date.now()
      // Everything but the call, written once apart: a progress message rewrites little.
      const { call: _written, ...rest } = record
      if (left > 0) await this.shared.put(`task:${record.id}`, JSON.stringify({ ...rest, runner }), left)
    })
    const settled = write.catch(() => {})
    this.writes.set(record.id, settled)
    void settled.then(() => {
      if (this.writes.get(record.id) === settled) this.writes.delete(record.id)
    })
    return write
  }

  /** Removes `record`'s copy and its place under its owner's cap, after the writes of it still under way. */
  withdraw(record: TaskRecord): Promise<void> {
    const previous = this.writes.get(record.id) ?? Promise.resolve()
    return previous.then(async () => {
      await Promise.all([this.shared.delete(`task:${record.id}`), this.shared.delete(`task-call:${record.id}`), this.shared.unrank(ownerKey(record), record.id), this.shared.unrank(ALL_TASKS, record.id)])
    })
  }

  /** The shared copy of task `id`, or `undefined` (unknown, expired, unreadable). */
  async read(id: string): Promise<SharedTaskRecord | undefined> {
    const text = await this.shared.get(`task:${id}`)
    return text === undefined ? undefined : parseRecord(text)
  }

  /**
   * Keeps what a client asked of a task run elsewhere (answers by key, a cancellation) apart from
   * its record, which only the running instance writes: if that instance dies before it heard,
   * the one that takes the task over still finds them.
   */
  async keepRequest(record: TaskRecord, message: TaskMessage): Promise<void> {
    const left = Math.max(1, record.createdAt + record.ttlMs - Date.now())
    if (message.kind === 'cancel') await this.shared.put(`task-cancel:${record.id}`, '1', left)
    if (message.kind !== 'update') return
    for (const [key, response] of Object.entries(message.responses)) {
      // Kept with the digest of the question it answers: a handler run again reuses it only for that one.
      const digest = record.digests[key]
      if (digest !== undefined) await keepAnswer(this.shared, record.id, key, { q: digest, r: response }, left)
    }
  }

  /** What clients asked of task `id` through other instances ({@link keepRequest}). */
  async keptRequests(id: string): Promise<{ answers: Record<string, TaskAnswer>, cancelled: boolean }> {
    const kept: Record<string, unknown> = {}
    for (const [key, text] of Object.entries(await this.shared.hashAll(`task-answers:${id}`))) kept[key] = parseJson(text)
    return { answers: answersOf(kept), cancelled: await this.shared.get(`task-cancel:${id}`) !== undefined }
  }

  /** Takes task `id` over from `runner`, which stopped: of all instances that try, one gets `true`. */
  claimTakeover(id: string, runner: string, ttlMs: number): Promise<boolean> {
    return this.shared.claim(`task-takeover:${id}:${runner}`, ttlMs)
  }

  /**
   * Whether another instance took task `id` over from this one ({@link claimTakeover}): this
   * instance was held for gone (its heartbeat lapsed while its connection to Redis was cut) and
   * has come back. It then writes nothing more of the task, and runs no further step of it.
   */
  async takenOverFromHere(id: string): Promise<boolean> {
    return await this.shared.get(`task-takeover:${id}:${this.instanceId}`) !== undefined
  }

  /** Hands `message` to the instance `runner` through the mailbox (what became of it: see `MailOutcome`). */
  send(runner: string, message: TaskMessage): ReturnType<Mailbox['send']> {
    return this.mailbox.send(runner, TASK_MAIL, message)
  }

  /** Whether the instance `runner` is gone (`Mailbox.isGone`: not listening, and its heartbeat lapsed). */
  isGone(runner: string): Promise<boolean> {
    return this.mailbox.isGone(runner)
  }
}
