import type { ResponseSink } from '../http/response-sink'

/** A session's count of requests in flight, as the caps and idle eviction read it. */
export interface InFlightCounter {
  active: number
  lastActivity: number
}

/**
 * Counts one POST as in flight from now until its response closes, or, when its stream became
 * resumable and the connection dropped first, until its requests are done (answered, or
 * abandoned after the grace): a call that waits for its client to come back is not idle.
 * Returns `hold`, which the transport calls to keep the count past the connection; it returns
 * the release.
 *
 * @example
 * ```ts
 * const hold = countInFlight(session, exchange.res, endLease)
 * transport.handle({ ...exchange, holdInFlight: hold }, onDelete)
 * ```
 */
export function countInFlight(counter: InFlightCounter, res: ResponseSink, done?: () => void): () => () => void {
  counter.active += 1
  let holds = 0
  let closed = false
  let released = false
  const release = () => {
    if (released) return
    released = true
    counter.active -= 1
    counter.lastActivity = Date.now()
    done?.()
  }
  res.once('close', () => {
    closed = true
    if (holds === 0) release()
  })
  return () => {
    holds += 1
    let ended = false
    return () => {
      if (ended) return
      ended = true
      holds -= 1
      if (holds === 0 && closed) release()
    }
  }
}
