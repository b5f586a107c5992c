import type { H3Event } from 'h3'
import type { AuthInfo } from '@modelcontextprotocol/server'
import type { McpEra, McpRequestScope, McpToolSubset } from '../../common/context'
import { sessionTagOf } from '../../elicitation/state'
import type { McpCaller } from './auth'
import type { DisconnectWatch } from './http-io'

/**
 * The scope of one request the endpoint serves. A class, not an object literal with a `signal`
 * getter: V8 builds a literal's getter as an accessor pair in the old generation, and that pair
 * keeps the getter's closure, and through it the request's event, request and response, alive
 * through every young-generation GC until the next full one (sse.ts says more). The getter on
 * the prototype is built once.
 *
 * @example
 * ```ts
 * const scope = new RequestScope(event, 'legacy', '/mcp', watchDisconnect(res), body, caller, secret)
 * runInMcpScope(scope, () => sessions.handle(exchange, owner, (id) => { scope.sessionId = id }))
 * ```
 */
export class RequestScope implements McpRequestScope {
  // `declare`: no own property until set, as with the object spread this replaces, so
  // `'principal' in scope` keeps its meaning.
  declare principal?: string
  declare authInfo?: AuthInfo
  declare sessionId?: string
  declare address?: string
  declare toolSubset?: McpToolSubset
  declare private tag?: string

  constructor(
    readonly event: H3Event,
    readonly era: McpEra,
    readonly route: string,
    private readonly disconnected: DisconnectWatch,
    readonly body: unknown,
    caller: McpCaller,
    /** The state secret: what keys the session's tag. */
    private readonly secret: string,
  ) {
    if (caller.principal !== undefined) this.principal = caller.principal
    if (caller.authInfo !== undefined) this.authInfo = caller.authInfo
  }

  /** Aborted when the client goes away; built on first read (most requests never ask). */
  get signal(): AbortSignal {
    return this.disconnected.signal()
  }

  /** The session as telemetry tells it; hashed on first read (an untraced, unobserved call never pays it). */
  get sessionTag(): string | undefined {
    if (this.sessionId === undefined) return undefined
    return (this.tag ??= sessionTagOf(this.secret, this.sessionId))
  }
}
