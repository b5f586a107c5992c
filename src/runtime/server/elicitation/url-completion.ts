import type { ElicitationRun } from './run'

/** How long a legacy URL elicitation can still be completed: a person may take a while. */
const COMPLETION_WINDOW_MS = 60 * 60 * 1000

interface Remembered {
  notify: (elicitationId: string) => Promise<void>
  expires: number
}

const remembered = new Map<string, Remembered>()

function sweep(now: number): void {
  for (const [id, entry] of remembered) if (entry.expires < now) remembered.delete(id)
}

/** Records which legacy session asked a URL elicitation, so its completion can be announced. */
export function rememberUrlElicitation(elicitationId: string, run: ElicitationRun): void {
  const server = run.server
  if (!server) return
  const now = Date.now()
  sweep(now)
  remembered.set(elicitationId, {
    expires: now + COMPLETION_WINDOW_MS,
    notify: id => server.notification({ method: 'notifications/elicitation/complete', params: { elicitationId: id } }),
  })
}

/**
 * Tells the legacy client that the out-of-band flow of a URL elicitation finished (the spec's
 * optional `notifications/elicitation/complete`). Call it from the route your URL points to once
 * the person is done. Returns `false` when the id is unknown, expired or already completed.
 * Modern clients need nothing: they learn completion on their retry.
 *
 * @example
 * ```ts
 * // server/routes/connect/done.get.ts
 * export default defineEventHandler(async (event) => {
 *   await completeMcpUrlElicitation(String(getQuery(event).id))
 *   return 'You can close this tab.'
 * })
 * ```
 */
export async function completeMcpUrlElicitation(elicitationId: string): Promise<boolean> {
  const entry = remembered.get(elicitationId)
  remembered.delete(elicitationId)
  if (!entry || entry.expires < Date.now()) return false
  await entry.notify(elicitationId).catch(() => {})
  return true
}
