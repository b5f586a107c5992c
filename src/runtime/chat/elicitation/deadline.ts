/**
 * What the form says about the host's timeout: the time left, and, in the last minute, that what
 * was typed is lost when it runs out (the host then answers `cancel` on the person's behalf).
 */

/** The time left as `m:ss`, never negative. */
export function formatTimeLeft(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000))
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`
}

/**
 * The deadline line of a pending form: `undefined` without a deadline.
 *
 * @example
 * ```ts
 * describeDeadline(now + 45_000, now) // { text: 'Time left to answer: 0:45. What you typed is lost when it runs out.', urgent: true }
 * ```
 */
export function describeDeadline(expiresAt: number | undefined, now: number): { text: string, urgent: boolean } | undefined {
  if (expiresAt === undefined) return undefined
  const left = expiresAt - now
  const urgent = left <= 60_000
  return { text: `Time left to answer: ${formatTimeLeft(left)}.${urgent ? ' What you typed is lost when it runs out.' : ''}`, urgent }
}
