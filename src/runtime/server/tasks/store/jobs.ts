import type { McpSharedState } from '../../cluster/shared-state'

// A job: a call of a client without tasks that runs past `mcp.tasks.detachAfterMs` and goes on as
// a task. Its client holds no task id: calling the tool again with the same arguments finds the
// job through its binding (elicitation/page/binding.ts `callBindingOf`: caller, tool, arguments).
// The binding is claimed before the handler starts, atomically (in this process, or in Redis
// across instances), so a second identical call never starts a second run while the first goes on.

/**
 * Who holds a binding: the claim's own token, and the task once the call became one
 * (`undefined` while the first call still runs inline).
 *
 * @example
 * ```ts
 * const held: JobHold = { token: 'b0c3…', taskId: undefined } // the first call still runs inline
 * ```
 */
export interface JobHold {
  token: string
  taskId: string | undefined
}

/**
 * What a binding's claim gave: `claimed` (this call runs the job, under `token`), or `held` by an
 * earlier call (what it holds).
 *
 * @example
 * ```ts
 * const claim: JobClaim = await jobs.claim(binding, 90_000)
 * if (!claim.claimed && claim.held.taskId) return statusOf(claim.held.taskId)
 * ```
 */
export type JobClaim = { claimed: true, token: string } | { claimed: false, held: JobHold }

/** How a binding is kept: a hash of one field (the token) whose value is the task id, or `''` before it. */
interface BindingCell {
  /** Sets `token` to `value` when the cell is empty or already holds `token`; `false` when another token holds it. */
  set: (key: string, token: string, value: string, ttlMs: number) => Promise<boolean>
  read: (key: string) => Promise<Record<string, string>>
  /** Empties the cell only when `token` holds it: a later call's claim is never removed by an earlier job's end. */
  clear: (key: string, token: string) => Promise<void>
}

function sharedCell(shared: McpSharedState): BindingCell {
  return {
    // One field at most: the check and the write are one step in Redis (CAPPED_HASH_SET).
    set: async (key, token, value, ttlMs) => await shared.hashSet(key, token, value, ttlMs, { maxFields: 1 }) === 'set',
    read: key => shared.hashAll(key),
    clear: (key, token) => shared.hashDelete(key, [token]),
  }
}

function localCell(): BindingCell {
  const cells = new Map<string, { token: string, value: string, expires: number, timer: ReturnType<typeof setTimeout> }>()
  const live = (key: string) => {
    const cell = cells.get(key)
    return cell && cell.expires > Date.now() ? cell : undefined
  }
  const drop = (key: string) => {
    clearTimeout(cells.get(key)?.timer)
    cells.delete(key)
  }
  return {
    set: async (key, token, value, ttlMs) => {
      const cell = live(key)
      if (cell && cell.token !== token) return false
      drop(key)
      const timer = setTimeout(() => drop(key), Math.max(1, ttlMs))
      // A binding must not keep a process alive that is otherwise done.
      if (typeof timer === 'object' && 'unref' in timer) timer.unref()
      cells.set(key, { token, value, expires: Date.now() + ttlMs, timer })
      return true
    },
    read: async (key) => {
      const cell = live(key)
      return cell ? { [cell.token]: cell.value } : {}
    },
    clear: async (key, token) => {
      if (cells.get(key)?.token === token) drop(key)
    },
  }
}

const keyOf = (binding: string) => `job:${binding}`

/**
 * The endpoint's job bindings: which call runs the job of one caller, tool and arguments, and
 * which task it became. In this process, or in the shared state (`NUXT_MCP_REDIS_URL`), where
 * every instance sees the same claim.
 *
 * @example
 * ```ts
 * const jobs = new JobBindings(sharedState)
 * const claim = await jobs.claim(binding, 90_000)
 * if (claim.claimed) await jobs.bind(binding, claim.token, record.id, record.ttlMs)
 * ```
 */
export class JobBindings {
  private readonly cell: Promise<BindingCell>

  constructor(shared?: Promise<McpSharedState>) {
    this.cell = shared ? shared.then(sharedCell) : Promise.resolve(localCell())
  }

  /**
   * Claims `binding` for `ttlMs` (the inline part of the call: it is extended to the task's ttl
   * by {@link bind}), or says what an earlier call holds. Atomic: of two identical calls at
   * once, exactly one gets `claimed`.
   */
  async claim(binding: string, ttlMs: number): Promise<JobClaim> {
    const cell = await this.cell
    const token = crypto.randomUUID()
    // An earlier holder may end between the failed claim and the read: then claimed again, a few times.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await cell.set(keyOf(binding), token, '', ttlMs)) return { claimed: true, token }
      const held = await this.read(binding)
      if (held) return { claimed: false, held }
    }
    throw new Error(`The job binding ${binding} changed hands three times in a row: call the tool again.`)
  }

  /** What holds `binding` now, or `undefined` when nothing does. */
  async read(binding: string): Promise<JobHold | undefined> {
    const cell = await this.cell
    const [entry] = Object.entries(await cell.read(keyOf(binding)))
    if (!entry) return undefined
    const [token, value] = entry
    return { token, taskId: value === '' ? undefined : value }
  }

  /** Ties the claim `token` to task `taskId` until `ttlMs` from now (the task's own end); `false` when the claim was lost (it expired). */
  async bind(binding: string, token: string, taskId: string, ttlMs: number): Promise<boolean> {
    const cell = await this.cell
    return cell.set(keyOf(binding), token, taskId, ttlMs)
  }

  /** Ends the binding held by `token`: the next identical call starts afresh. A binding another call holds now stays. */
  async end(binding: string, token: string): Promise<void> {
    const cell = await this.cell
    await cell.clear(keyOf(binding), token)
  }
}
