import type { SubscriptionRelay } from '../../mcp/server/subscriptions'
import { logLost } from './sessions'
import type { SharedSessionDirectory } from './sessions'

/** The sessions subscribed to a URI, ranked by when their subscription was last confirmed. */
function subscribersKey(uri: string): string {
  return `subscribers:${uri}`
}
/** The URIs one session subscribed to, to confirm them while it lives and drop them when it ends. */
function subscriptionsKey(sessionId: string): string {
  return `subscriptions:${sessionId}`
}

/**
 * Confirms a live session's subscriptions (when its record is touched), so that those of
 * sessions that expired without a DELETE age out of the subscribers' rankings.
 */
export async function confirmSubscriptions(directory: SharedSessionDirectory, sessionId: string): Promise<void> {
  const { shared, ttlMs } = directory
  const uris = await shared.ranked(subscriptionsKey(sessionId), 0)
  const now = Date.now()
  await Promise.all(uris.map(uri => shared.rank(subscribersKey(uri), sessionId, now, ttlMs)))
  if (uris.length > 0) await shared.touch(subscriptionsKey(sessionId), ttlMs)
}

/** Drops an ended session's subscriptions. */
export async function dropSharedSubscriptions(directory: SharedSessionDirectory, sessionId: string): Promise<void> {
  const { shared } = directory
  const uris = await shared.ranked(subscriptionsKey(sessionId), 0)
  await Promise.all([...uris.map(uri => shared.unrank(subscribersKey(uri), sessionId)), shared.delete(subscriptionsKey(sessionId))])
}

/**
 * Resource subscriptions over the shared state: recorded in Redis when a session subscribes, and
 * a `notifyMcpResourceUpdated()` on any instance sent once per subscribed session, to the
 * instance that holds its GET stream.
 *
 * @example
 * ```ts
 * relaySubscriptions(createSubscriptionRelay(directory))
 * ```
 */
export function createSubscriptionRelay(directory: SharedSessionDirectory): SubscriptionRelay {
  const { shared, ttlMs } = directory
  return {
    subscribed: (sessionId, uri) => {
      const now = Date.now()
      void Promise.all([
        shared.rank(subscribersKey(uri), sessionId, now, ttlMs),
        shared.rank(subscriptionsKey(sessionId), uri, now, ttlMs),
      ]).catch(logLost)
    },
    unsubscribed: (sessionId, uri) => {
      void Promise.all([shared.unrank(subscribersKey(uri), sessionId), shared.unrank(subscriptionsKey(sessionId), uri)]).catch(logLost)
    },
    notify: async (uri) => {
      const sessions = await shared.ranked(subscribersKey(uri), Date.now() - ttlMs)
      const message = { jsonrpc: '2.0' as const, method: 'notifications/resources/updated', params: { uri } }
      await Promise.all(sessions.map(sessionId => directory.broadcast({ kind: 'stream', sessionId, message })))
      return sessions.length
    },
  }
}
