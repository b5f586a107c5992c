import { tooManyOfOneCaller, tooManyOpen } from '../http/session-caps'
import type { SessionCaps } from '../http/session-caps'

/** What the table needs to know of a session to apply the caps and idle eviction. */
export interface TabledSession {
  /** What the per-principal cap counts by: the principal, or the client address when anonymous. */
  owner: string
  lastActivity: number
  /** POST exchanges whose response has not finished: a session with one is never idle. */
  active: number
}

/**
 * The sessions this process holds, by id and by owner: the global and per-principal caps, and
 * which sessions are idle. Closing is the caller's: the table only says whom.
 *
 * @example
 * ```ts
 * const table = new SessionTable<LegacySession>()
 * const room = table.makeRoom(owner, caps)
 * if (room instanceof Response) return room
 * for (const id of room) await close(id)
 * ```
 */
export class SessionTable<S extends TabledSession> {
  private readonly sessions = new Map<string, S>()
  private readonly byOwner = new Map<string, Set<string>>()

  get size(): number {
    return this.sessions.size
  }

  get(id: string): S | undefined {
    return this.sessions.get(id)
  }

  ids(): string[] {
    return [...this.sessions.keys()]
  }

  values(): IterableIterator<S> {
    return this.sessions.values()
  }

  add(id: string, session: S): void {
    this.sessions.set(id, session)
    const ids = this.byOwner.get(session.owner) ?? new Set<string>()
    ids.add(id)
    this.byOwner.set(session.owner, ids)
  }

  /** Drops a session (synchronously, so a cap check right after sees the room). */
  remove(id: string): S | undefined {
    const session = this.sessions.get(id)
    if (!session) return undefined
    this.sessions.delete(id)
    const ids = this.byOwner.get(session.owner)
    ids?.delete(id)
    if (ids?.size === 0) this.byOwner.delete(session.owner)
    return session
  }

  /**
   * Makes room for one more session of `owner`: at its per-principal cap, its least recently used
   * idle session must go; at the global cap, the least recently used idle one of anybody. A
   * session with a request in flight never goes: when none is idle, the answer is a 503.
   * Returns the ids to close.
   */
  makeRoom(owner: string, caps: SessionCaps): string[] | Response {
    const victims: string[] = []
    const mine = this.byOwner.get(owner)
    if (mine && mine.size >= caps.maxPerPrincipal) {
      const victim = this.leastRecentlyUsedIdle(mine)
      if (!victim) return tooManyOfOneCaller(caps)
      victims.push(victim)
    }
    if (this.sessions.size - victims.length >= caps.max) {
      const victim = this.leastRecentlyUsedIdle(this.sessions.keys(), victims)
      if (!victim) return tooManyOpen(caps)
      victims.push(victim)
    }
    return victims
  }

  /** The sessions with nothing in flight and no activity for longer than `idleMs`. */
  idle(idleMs: number, now = Date.now()): string[] {
    return [...this.sessions].filter(([, session]) => session.active === 0 && now - session.lastActivity > idleMs).map(([id]) => id)
  }

  private leastRecentlyUsedIdle(ids: Iterable<string>, skip: string[] = []): string | undefined {
    let victim: string | undefined
    let oldest = Infinity
    for (const id of ids) {
      const session = this.sessions.get(id)
      if (session && !skip.includes(id) && session.active === 0 && session.lastActivity < oldest) {
        oldest = session.lastActivity
        victim = id
      }
    }
    return victim
  }
}

/**
 * Sessions ended for good lately, each remembered for a minute: a load of one already under way
 * (hydration on another instance's word) is dropped instead of bringing it back.
 *
 * @example
 * ```ts
 * const ended = new RecentlyEnded()
 * ended.add(id)
 * ended.has(id) // true, for a minute
 * ```
 */
export class RecentlyEnded {
  private readonly until = new Map<string, number>()

  add(id: string): void {
    const now = Date.now()
    for (const [ended, until] of this.until) if (until < now) this.until.delete(ended)
    this.until.set(id, now + 60_000)
  }

  has(id: string): boolean {
    return (this.until.get(id) ?? 0) >= Date.now()
  }
}
