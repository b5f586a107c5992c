import type { McpSharedState } from '../common/shared/shared-state'
import { isAlive } from '../common/shared/liveness'
import { isRecord } from '../common/is-record'
import type { TaskRecord, TaskStatus } from './record'

/** A task record as every instance reads it: with the instance that runs its handler. */
export interface SharedTaskRecord extends TaskRecord {
  runner: string
}

/** What one instance asks of the instance that runs a task. */
export type TaskMessage =
  | { kind: 'update', taskId: string, responses: Record<string, unknown> }
  | { kind: 'cancel', taskId: string }
  | { kind: 'seen', taskId: string }
  | { kind: 'ping', taskId: string }

const STATUSES: ReadonlySet<string> = new Set<TaskStatus>(['working', 'input_required', 'completed', 'failed', 'cancelled'])

/** The ranked set that counts one principal's tasks against `mcp.tasks.maxPerPrincipal`, across instances. */
function ownerKey(record: TaskRecord): string {
  return `tasks-of:${encodeURIComponent(record.owner.principal)}`
}

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
  const { owner, questions, answers } = value
  if (!isRecord(owner) || typeof owner.principal !== 'string' || !isRecord(questions) || !isRecord(answers) || !isStatus(value.status)) return undefined
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
  const call = isRecord(value.call) ? value.call : {}
  const error = isRecord(value.error) && typeof value.error.code === 'number' && typeof value.error.message === 'string' ? { code: value.error.code, message: value.error.message, ...(value.error.data !== undefined && { data: value.error.data }) } : undefined
  return {
    id: value.id,
    runner: value.runner,
    owner: { principal: owner.principal, ...(typeof owner.sessionId === 'string' && { sessionId: owner.sessionId }) },
    era: value.era,
    tool: value.tool,
    status: value.status,
    ...(typeof value.statusMessage === 'string' && { statusMessage: value.statusMessage }),
    createdAt: value.createdAt,
    lastUpdatedAt: value.lastUpdatedAt,
    ttlMs: value.ttlMs,
    pollIntervalMs: value.pollIntervalMs,
    questions: requests,
    answers,
    steps,
    call: { arguments: isRecord(call.arguments) ? call.arguments : {}, ...(isRecord(call.capabilities) && { capabilities: call.capabilities }) },
    ...(isRecord(value.result) && { result: value.result }),
    ...(error && { error }),
  }
}

function parseMessage(text: string): TaskMessage | undefined {
  const value = parseJson(text)
  if (!isRecord(value) || typeof value.taskId !== 'string') return undefined
  if (value.kind === 'update' && isRecord(value.responses)) return { kind: 'update', taskId: value.taskId, responses: value.responses }
  if (value.kind === 'cancel' || value.kind === 'seen' || value.kind === 'ping') return { kind: value.kind, taskId: value.taskId }
  return undefined
}

/**
 * Keeps `answer` to question `key` of task `taskId` for `ttlMs`, where the instance that takes the
 * task over reads it ({@link SharedTasks.keptRequests}): the answer is not asked for again.
 *
 * @example
 * ```ts
 * await keepAnswer(shared, note.taskId, note.key, { action: 'accept', content: { ok: true } }, 60_000)
 * ```
 */
export function keepAnswer(shared: McpSharedState, taskId: string, key: string, answer: unknown, ttlMs: number): Promise<unknown> {
  return shared.hashSet(`task-answers:${taskId}`, key, JSON.stringify(answer), ttlMs)
}

/**
 * An endpoint's tasks in the state several instances share (`NUXT_MCP_REDIS_URL`): each record
 * kept under its id until its ttl is over, written by the instance that runs it after every
 * change (in order, the newest state last), the per-principal cap counted across instances, and
 * a channel per instance on which the others hand it answers, cancellations and "seen" notes.
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

  constructor(shared: McpSharedState) {
    this.shared = shared
  }

  get instanceId(): string {
    return this.shared.instanceId
  }

  /** Hears what other instances ask of the tasks this one runs. */
  listen(handler: (message: TaskMessage) => void): Promise<void> {
    return this.shared.subscribe(`tasks:${this.instanceId}`, (text) => {
      const message = parseMessage(text)
      if (message) handler(message)
    })
  }

  /** Counts `record` against its principal's cap across instances; `false` when the cap is reached. */
  async admit(record: TaskRecord, max: number): Promise<boolean> {
    const expires = record.createdAt + record.ttlMs
    return await this.shared.rankWithin([{ key: ownerKey(record), max }], record.id, expires, record.ttlMs, Date.now()) < 0
  }

  /**
   * Writes `record` as it is when its turn comes: writes of one task never overtake each other,
   * so the shared copy ends with the newest state.
   */
  save(record: TaskRecord, runner = this.instanceId): Promise<void> {
    const previous = this.writes.get(record.id) ?? Promise.resolve()
    const write = previous.then(async () => {
      const left = record.createdAt + record.ttlMs - Date.now()
      if (left > 0) await this.shared.put(`task:${record.id}`, JSON.stringify({ ...record, runner }), left)
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
      await Promise.all([this.shared.delete(`task:${record.id}`), this.shared.unrank(ownerKey(record), record.id)])
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
    for (const [key, response] of Object.entries(message.responses)) await keepAnswer(this.shared, record.id, key, response, left)
  }

  /** What clients asked of task `id` through other instances ({@link keepRequest}). */
  async keptRequests(id: string): Promise<{ answers: Record<string, unknown>, cancelled: boolean }> {
    const answers: Record<string, unknown> = {}
    for (const [key, text] of Object.entries(await this.shared.hashAll(`task-answers:${id}`))) {
      const answer = parseJson(text)
      if (answer !== undefined) answers[key] = answer
    }
    return { answers, cancelled: await this.shared.get(`task-cancel:${id}`) !== undefined }
  }

  /** Takes task `id` over from `runner`, which stopped: of all instances that try, one gets `true`. */
  claimTakeover(id: string, runner: string, ttlMs: number): Promise<boolean> {
    return this.shared.claim(`task-takeover:${id}:${runner}`, ttlMs)
  }

  /** Hands `message` to the instance `runner`; `false` when no instance by that tag listens (it stopped, or its subscriber is reconnecting). */
  async send(runner: string, message: TaskMessage): Promise<boolean> {
    return await this.shared.publish(`tasks:${runner}`, JSON.stringify(message)) > 0
  }

  /**
   * Whether the instance `runner` is gone: nobody listens by its tag *and* its heartbeat has
   * lapsed. Silence alone is not death: after a Redis restart a live instance's subscriber comes
   * back a moment later than its heartbeat, and taking its task over then would run its handler
   * twice at once (the chaos run caught a `once()` step run twice that way).
   */
  async isGone(runner: string, taskId: string): Promise<boolean> {
    return !await this.send(runner, { kind: 'ping', taskId }) && !await isAlive(this.shared, runner)
  }
}
