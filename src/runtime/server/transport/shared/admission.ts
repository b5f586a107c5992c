import { tooManyOfOneCaller, tooManyOpen } from '../http/session-caps'
import type { SessionCaps } from '../http/session-caps'
import { logLost, unavailableResponse } from './sessions'
import type { SharedSessionDirectory } from './sessions'

/** How often a session is admitted again after making room, when others took the room first. */
const ADMIT_ATTEMPTS = 5

/** A place held for a session being opened: given back (its busy mark ended) once it is open or failed. */
export interface AdmittedSession { release: () => void }

/**
 * Admits one more session of `owner` across all instances, as {@link SessionTable.makeRoom} does
 * in one process. The session is ranked only where both caps have room, in one step in Redis, so
 * initializes arriving at once on several instances cannot all take the last place. At a cap,
 * the least recently used session with nothing in flight on any instance (and none being opened)
 * is ended (`end`) and the admission tried again; when every one is busy, the cap's 503.
 * `activeHere` tells of requests this instance has in flight that are too young to have marked
 * their session busy yet.
 *
 * @example
 * ```ts
 * const admitted = await admitSharedSession(directory, id, owner, caps, id => false, id => end(id))
 * if (admitted instanceof Response) return admitted
 * try { await open(id) } finally { admitted.release() }
 * ```
 */
export async function admitSharedSession(directory: SharedSessionDirectory, sessionId: string, owner: string, caps: SessionCaps, activeHere: (id: string) => boolean, end: (id: string) => Promise<unknown>): Promise<Response | AdmittedSession> {
  const firstIdle = async (ids: string[]) => {
    // The oldest few, checked at once (one command's wait, not one per candidate): past them, the
    // odds that all are busy and a later one is not are small.
    const candidates = ids.filter(id => id !== sessionId).slice(0, 8).filter(id => !activeHere(id))
    const busy = await Promise.all(candidates.map(id => directory.isBusy(id)))
    return candidates.find((_, index) => !busy[index])
  }
  try {
    for (let attempt = 1; ; attempt++) {
      const full = await directory.admit(sessionId, owner, caps)
      if (!full) return { release: () => void directory.opened(sessionId).catch(logLost) }
      const refusal = full === 'caller' ? tooManyOfOneCaller(caps) : tooManyOpen(caps)
      if (attempt === ADMIT_ATTEMPTS) return refusal
      const { all, mine } = await directory.ranking(owner)
      const victim = await firstIdle(full === 'caller' ? mine : all)
      if (!victim) return refusal
      await end(victim)
    }
  }
  catch (error) {
    return unavailableResponse(error)
  }
}
