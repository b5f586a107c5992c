import type { Server } from '@modelcontextprotocol/server'

/** Legacy sessions' resource subscriptions: server → subscribed URIs. */
const subscribed = new Map<Server, Set<string>>()

/**
 * Serves `resources/subscribe` and `resources/unsubscribe` for a legacy session. (The 2026-07-28
 * revision replaces them with `subscriptions/listen`, which this module does not advertise.)
 */
export function installSubscriptionHandlers(server: Server): void {
  server.setRequestHandler('resources/subscribe', (request) => {
    const uris = subscribed.get(server) ?? new Set<string>()
    uris.add(request.params.uri)
    subscribed.set(server, uris)
    return {}
  })
  server.setRequestHandler('resources/unsubscribe', (request) => {
    subscribed.get(server)?.delete(request.params.uri)
    return {}
  })
}

/** Forgets a closed session's subscriptions. */
export function dropSubscriptions(server: Server): void {
  subscribed.delete(server)
}

/**
 * Tells every legacy session subscribed to `uri` that the resource changed
 * (`notifications/resources/updated`). Returns how many sessions were notified.
 *
 * @example
 * ```ts
 * await saveSettings(body)
 * await notifyMcpResourceUpdated('config://app')
 * ```
 */
export async function notifyMcpResourceUpdated(uri: string): Promise<number> {
  const targets = [...subscribed].filter(([, uris]) => uris.has(uri)).map(([server]) => server)
  await Promise.all(targets.map(server => server.notification({ method: 'notifications/resources/updated', params: { uri } }).catch(() => {})))
  return targets.length
}
