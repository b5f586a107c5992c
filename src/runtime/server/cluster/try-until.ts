// Redis comes back a moment after a restart, and an instance's subscriber a moment after that:
// what a waiting call depends on is tried again meanwhile rather than dropped (transport/shared/
// and tasks/ both do).

/** How long a message that a waiting call depends on is tried before it is given up. */
export const DELIVERY_DEADLINE_MS = 10_000
/** How often it is tried meanwhile: about the time Redis takes to come back after a reset. */
const RETRY_EVERY_MS = 200

/**
 * Calls `attempt` until it returns something other than `undefined`, every 200 ms, for
 * `withinMs`; resolves with what it returned, or `undefined` once the time has run out (the caller
 * then says what was given up, and why). `attempt` does not throw: it turns a failure into
 * `undefined` and keeps the reason for that message.
 *
 * @example
 * ```ts
 * let reason = ''
 * const sent = await tryUntil(DELIVERY_DEADLINE_MS, async () => (reason = await send()) === '' || undefined)
 * if (!sent) console.error(`not delivered: ${reason}`)
 * ```
 */
export async function tryUntil<T>(withinMs: number, attempt: () => Promise<T | undefined>): Promise<T | undefined> {
  const deadline = Date.now() + withinMs
  for (;;) {
    const value = await attempt()
    if (value !== undefined) return value
    if (Date.now() >= deadline) return undefined
    await new Promise(resolve => setTimeout(resolve, RETRY_EVERY_MS))
  }
}
