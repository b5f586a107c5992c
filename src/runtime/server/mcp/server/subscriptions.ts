import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'
import type { Server } from '@modelcontextprotocol/server'
import { findResource, type McpRegistry } from '../definitions/registry'
import type { HiddenCheck } from '../definitions/guards'
import type { McpNotifyOptions } from './list-changes'

/** Longest URI a session may subscribe to: a `{+path}` template matches any length. */
export const MAX_SUBSCRIPTION_URI_LENGTH = 2048
/** Most subscriptions one legacy session holds at once. */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 100

/** Legacy sessions' resource subscriptions: server → its endpoint's route and the subscribed URIs. */
const subscribed = new Map<Server, { route: string, uris: Set<string> }>()

/**
 * Keeps subscriptions where every instance sees them (`NUXT_MCP_REDIS_URL`), so that
 * {@link notifyMcpResourceUpdated} called on any instance reaches each subscribed session once.
 */
export interface SubscriptionRelay {
  subscribed: (sessionId: string, uri: string) => void
  unsubscribed: (sessionId: string, uri: string) => void
  /** Notifies every subscribed session of every instance; how many. */
  notify: (uri: string) => Promise<number>
}

/** Each endpoint's relay, by route. */
const relays = new Map<string, SubscriptionRelay>()

/** Installs (or, with `undefined`, removes) the relay of the endpoint at `route` to the other instances. */
export function relaySubscriptions(route: string, next: SubscriptionRelay | undefined): void {
  if (next) relays.set(route, next)
  else relays.delete(route)
}

function refuse(message: string, uri: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message, { uri: uri.slice(0, 200) })
}

/**
 * Serves `resources/subscribe` and `resources/unsubscribe` for a legacy session: only URIs of
 * registered resources (or template matches), of bounded length, a bounded number per session,
 * since they are kept for as long as the session lives. (The 2026-07-28 revision replaces them
 * with `subscriptions/listen`, which this module does not advertise.)
 */
export function installSubscriptionHandlers(server: Server, route: string, registry: McpRegistry, hidden: HiddenCheck): void {
  server.setRequestHandler('resources/subscribe', async (request, ctx) => {
    const uri = request.params.uri
    if (uri.length > MAX_SUBSCRIPTION_URI_LENGTH) {
      throw refuse(`Cannot subscribe: the URI is ${uri.length} characters long; at most ${MAX_SUBSCRIPTION_URI_LENGTH} characters are accepted.`, uri)
    }
    // A resource the caller may not use is answered as one that does not exist.
    if (await hidden(findResource(registry, uri)?.resource)) {
      throw refuse(`Cannot subscribe to "${uri.slice(0, 200)}": no resource or resource template has that URI. Call resources/list or resources/templates/list for what exists.`, uri)
    }
    const uris = subscribed.get(server)?.uris ?? new Set<string>()
    if (!uris.has(uri) && uris.size >= MAX_SUBSCRIPTIONS_PER_SESSION) {
      throw refuse(`Cannot subscribe to "${uri.slice(0, 200)}": this session already holds ${MAX_SUBSCRIPTIONS_PER_SESSION} subscriptions, the most one session may. Unsubscribe from one first.`, uri)
    }
    uris.add(uri)
    subscribed.set(server, { route, uris })
    if (ctx.sessionId) relays.get(route)?.subscribed(ctx.sessionId, uri)
    return {}
  })
  server.setRequestHandler('resources/unsubscribe', (request, ctx) => {
    subscribed.get(server)?.uris.delete(request.params.uri)
    if (ctx.sessionId) relays.get(route)?.unsubscribed(ctx.sessionId, request.params.uri)
    return {}
  })
}

/** Forgets a closed session's subscriptions. */
export function dropSubscriptions(server: Server): void {
  subscribed.delete(server)
}

/** Notifies the subscribed sessions of this process, of the endpoint at `route` or of all. */
async function notifyHere(uri: string, route: string | undefined): Promise<number> {
  const targets = [...subscribed]
    .filter(([, entry]) => entry.uris.has(uri) && (route === undefined || entry.route === route))
    .map(([server]) => server)
  await Promise.all(targets.map(server => server.notification({ method: 'notifications/resources/updated', params: { uri } }).catch(() => {})))
  return targets.length
}

/**
 * Tells every legacy session subscribed to `uri` that the resource changed
 * (`notifications/resources/updated`). Returns how many sessions were notified. With
 * `NUXT_MCP_REDIS_URL`, the sessions of every instance, each once, whichever instance calls it.
 * The sessions of every endpoint of the app, or only of `options.endpoint` (its route).
 *
 * @example
 * ```ts
 * await saveSettings(body)
 * await notifyMcpResourceUpdated('config://app')
 * await notifyMcpResourceUpdated('config://app', { endpoint: '/mcp/admin' })
 * ```
 */
export async function notifyMcpResourceUpdated(uri: string, options: McpNotifyOptions = {}): Promise<number> {
  // With Redis every endpoint has a relay, which reaches this process's sessions too.
  if (relays.size === 0) return notifyHere(uri, options.endpoint)
  const chosen = options.endpoint === undefined ? [...relays.values()] : [relays.get(options.endpoint)]
  const counts = await Promise.all(chosen.map(relay => relay?.notify(uri) ?? 0))
  return counts.reduce((sum, count) => sum + count, 0)
}
