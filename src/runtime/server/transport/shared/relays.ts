import { completeLocalUrlElicitation, relayUrlCompletions } from '../../elicitation/url-completion'
import { offerListChangePublisher } from '../../mcp/list-changes'
import { relaySubscriptions } from '../../mcp/subscriptions'
import type { McpSharedState } from '../../common/shared/shared-state'
import { createPublishingEventBus } from './event-bus'
import { SharedSessionDirectory } from './sessions'
import { createSubscriptionRelay } from './subscription-relay'
import { createUrlCompletionRelay } from './url-relay'

/**
 * Makes what the app raises on this instance reach the clients of the others before this
 * instance's endpoint at `route` is made (at its first MCP request): `notifyMcpListChanged()`,
 * `notifyMcpResourceUpdated()` and `completeMcpUrlElicitation()` from a webhook or an admin
 * route of an instance that has served no MCP request yet. Only publishes: an instance without
 * its endpoint holds no session, so it has nothing to listen for. The endpoint's own relays and
 * bus replace these when it is made.
 *
 * @example
 * ```ts
 * relayBeforeFirstRequest('/mcp', await shared, { ttlMs: sharedRecordTtl(config), listChanged: true })
 * ```
 */
export function relayBeforeFirstRequest(route: string, state: McpSharedState, options: { ttlMs: number, listChanged: boolean }): void {
  const directory = new SharedSessionDirectory(state, options.ttlMs)
  relayUrlCompletions(route, createUrlCompletionRelay(directory, completeLocalUrlElicitation))
  relaySubscriptions(route, createSubscriptionRelay(directory))
  offerListChangePublisher(route, createPublishingEventBus(state), options.listChanged)
}
