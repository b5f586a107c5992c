import type { Server } from '@modelcontextprotocol/server'
import { forgetUrlElicitationsOf } from '../../elicitation/url-completion'
import { sessionValuesStore } from './session-values'
import { dropSubscriptions } from './subscriptions'

/**
 * Opens what a legacy session keeps in this process: its `useMcpSession()` values, which may be
 * set from now until {@link forgetSession}.
 *
 * @example
 * ```ts
 * beginSession(id, '/mcp')
 * ```
 */
export function beginSession(sessionId: string, route: string): void {
  sessionValuesStore(route).open(sessionId)
}

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
