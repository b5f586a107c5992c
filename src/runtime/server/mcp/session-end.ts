import type { Server } from '@modelcontextprotocol/server'
import { forgetUrlElicitationsOf } from '../elicitation/url-completion'
import { sessionValuesStore } from './session-values'
import { dropSubscriptions } from './subscriptions'

/**
 * Forgets what a closed legacy session left in this process: its resource subscriptions, its URL
 * flows, its `useMcpSession()` values. (With shared sessions, the shared copies go with the
 * session's record.)
 *
 * @example
 * ```ts
 * forgetSession(id, session.server, '/mcp')
 * await session.server.close()
 * ```
 */
export function forgetSession(sessionId: string, server: Server, route: string): void {
  dropSubscriptions(server)
  forgetUrlElicitationsOf(sessionId)
  sessionValuesStore(route).forget(sessionId)
}
