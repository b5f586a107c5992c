import type { Server } from '@modelcontextprotocol/server'
import type { ElicitationRun } from './run'

/** How long a legacy URL elicitation can still be completed: a person may take a while. */
const COMPLETION_WINDOW_MS = 60 * 60 * 1000
/** Most URL flows remembered at once; past it the oldest is forgotten (it can no longer be completed). */
export const MAX_REMEMBERED_URL_FLOWS = 10_000

interface Remembered {
  sessionId: string | undefined
  /** The route of the endpoint that asked: whose relay knows the flow across instances. */
  route: string
  /** Not a strong reference: a flow must not keep a closed session's server alive. */
  server: WeakRef<Server>
  expires: number
}

// Insertion order is expiry order (one fixed window), so expired entries sit at the front.
const remembered = new Map<string, Remembered>()

/**
 * Completes URL flows across instances (`NUXT_MCP_REDIS_URL`): records which instance asked, and
 * hands a completion called on another instance to it.
 */
export interface UrlCompletionRelay {
  remember: (elicitationId: string, windowMs: number) => void
  forget: (elicitationId: string) => void
  /** Completes a flow this instance does not know; `false` when no instance does. */
  complete: (elicitationId: string) => Promise<boolean>
}

/** Each endpoint's relay, by route. */
const relays = new Map<string, UrlCompletionRelay>()

/** Installs (or, with `undefined`, removes) the relay of the endpoint at `route` to the other instances. */
export function relayUrlCompletions(route: string, next: UrlCompletionRelay | undefined): void {
  if (next) relays.set(route, next)
  else relays.delete(route)
}

function sweep(now: number): void {
  for (const [id, entry] of remembered) {
    if (entry.expires >= now) return
    remembered.delete(id)
  }
}

/**
 * Records which legacy session asked a URL elicitation, so its completion can be announced.
 * Bounded: expired flows go first, then the oldest at {@link MAX_REMEMBERED_URL_FLOWS}.
 */
export function rememberUrlElicitation(elicitationId: string, run: ElicitationRun): void {
  const server = run.server
  if (!server) return
  const now = Date.now()
  sweep(now)
  if (remembered.size >= MAX_REMEMBERED_URL_FLOWS) {
    const oldest = remembered.keys().next()
    if (!oldest.done) remembered.delete(oldest.value)
  }
  remembered.set(elicitationId, { sessionId: run.scope.sessionId, route: run.scope.route, server: new WeakRef(server), expires: now + COMPLETION_WINDOW_MS })
  relays.get(run.scope.route)?.remember(elicitationId, COMPLETION_WINDOW_MS)
}

/**
 * Forgets a URL flow that will not be completed: the person declined or cancelled, or the wait
 * ended without an answer. (An accept keeps it: it only means the person agreed to open the page.)
 */
export function forgetUrlElicitation(elicitationId: string): void {
  const entry = remembered.get(elicitationId)
  if (!entry) return
  remembered.delete(elicitationId)
  relays.get(entry.route)?.forget(elicitationId)
}

/** Forgets the URL flows of a legacy session that closed: nobody is left to notify. */
export function forgetUrlElicitationsOf(sessionId: string): void {
  for (const [id, entry] of remembered) if (entry.sessionId === sessionId) remembered.delete(id)
}

/**
 * Tells the legacy client that the out-of-band flow of a URL elicitation finished (the spec's
 * optional `notifications/elicitation/complete`). Call it from the route your URL points to once
 * the person is done. Returns `false` when the id is unknown, expired, declined, already
 * completed, or its session has ended. Works for a flow of any endpoint: the id says which.
 * Modern clients need nothing: they learn completion on their retry. With `NUXT_MCP_REDIS_URL`
 * it may be called on any instance: the one that asked is told through Redis (then `true` means
 * the flow was known and handed over).
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
  if (!entry) {
    // Asked on another instance: the id is unique across endpoints, so each endpoint's relay is
    // asked in turn until one knows it.
    for (const relay of relays.values()) if (await relay.complete(elicitationId)) return true
    return false
  }
  relays.get(entry.route)?.forget(elicitationId)
  return completeLocalUrlElicitation(elicitationId)
}

/** Completes a URL flow this instance asked (what {@link completeMcpUrlElicitation} does, here only). */
export async function completeLocalUrlElicitation(elicitationId: string): Promise<boolean> {
  const entry = remembered.get(elicitationId)
  remembered.delete(elicitationId)
  const server = entry?.server.deref()
  if (!entry || !server || entry.expires < Date.now()) return false
  await server.notification({ method: 'notifications/elicitation/complete', params: { elicitationId } }).catch(() => {})
  return true
}
