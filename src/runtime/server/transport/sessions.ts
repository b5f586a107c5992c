import { randomUUID } from 'node:crypto'
import type { AuthInfo, Server } from '@modelcontextprotocol/server'
import { jsonRpcError } from './http-errors'
import type { HandlerDeps } from '../mcp/handlers'
import { NodeSessionTransport } from './legacy-transport'
import type { LegacyExchange } from './legacy-transport'
import { createMcpServer } from '../mcp/server-factory'
import { dropSubscriptions } from '../mcp/subscriptions'
import { forgetUrlElicitationsOf } from '../elicitation/url-completion'

interface LegacySession {
  /** Who opened it (from `mcp:auth`): only they may use it. */
  principal: string | undefined
  transport: NodeSessionTransport
  server: Server
  lastActivity: number
  /** POST exchanges whose response has not finished: a session with one is never idle. */
  active: number
}

/** Counts for leak tests and the dev banner; not public API. */
export interface SessionStats { open: number, active: number }

/** Who is calling, as the `mcp:auth` hooks decided. */
export interface LegacyCaller { principal?: string, authInfo?: AuthInfo }

function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body]
  return messages.some(message => typeof message === 'object' && message !== null && 'method' in message && message.method === 'initialize')
}

/**
 * The legacy (≤ 2025-11-25) half of the endpoint: `initialize` opens a session with its own SDK
 * server and Node transport; later requests find it by `Mcp-Session-Id`.
 */
export class LegacySessions {
  private readonly sessions = new Map<string, LegacySession>()
  private sweeper?: ReturnType<typeof setInterval>

  constructor(private readonly deps: HandlerDeps) {
    const idle = deps.config.sessions.idleTimeoutMs
    if (idle > 0) {
      this.sweeper = setInterval(() => this.evictIdle(), Math.min(Math.max(idle / 4, 1000), 60_000))
      this.sweeper.unref?.()
    }
  }

  /**
   * Serves one legacy HTTP request (POST, GET stream or DELETE). Resolves with a refusal for the
   * endpoint to send, or `undefined` when the session's transport answers on the Node response.
   */
  async handle(exchange: LegacyExchange, caller: LegacyCaller, onSession: (id: string) => void): Promise<Response | undefined> {
    const header = exchange.req.headers['mcp-session-id']
    const sessionId = Array.isArray(header) ? header[0] : header
    if (sessionId) {
      const session = this.sessions.get(sessionId)
      if (!session) return jsonRpcError(404, -32001, `Session not found: the Mcp-Session-Id "${sessionId.slice(0, 64)}" is unknown or expired. Send a new initialize request without the header.`)
      if (session.principal !== caller.principal) {
        return jsonRpcError(403, -32000, 'Forbidden: this Mcp-Session-Id was opened by another principal. Initialize a session of your own.')
      }
      onSession(sessionId)
      this.forward(sessionId, session, { ...exchange, ...(caller.authInfo && { authInfo: caller.authInfo }) })
      return undefined
    }
    if (exchange.req.method !== 'POST' || !isInitialize(exchange.body)) {
      return jsonRpcError(400, -32000, 'Bad Request: missing Mcp-Session-Id header. Send initialize first (legacy clients), or send a 2026-07-28 request with params._meta["io.modelcontextprotocol/protocolVersion"].')
    }
    if (this.sessions.size >= this.deps.config.sessions.max) {
      return jsonRpcError(503, -32000, `Too many open MCP sessions (${this.deps.config.sessions.max}). Retry later, or raise \`mcp.sessions.max\` (NUXT_MCP_SESSIONS_MAX).`)
    }
    await this.open({ ...exchange, ...(caller.authInfo && { authInfo: caller.authInfo }) }, caller.principal, onSession)
    return undefined
  }

  private async open(exchange: LegacyExchange, principal: string | undefined, onSession: (id: string) => void): Promise<void> {
    const id = randomUUID()
    const server = createMcpServer(this.deps, 'legacy')
    const transport = new NodeSessionTransport(id)
    transport.onclose = () => {
      this.sessions.delete(id)
    }
    await server.connect(transport)
    onSession(id)
    transport.handle(exchange, () => void this.close(id))
    // A refused initialize (wrong Accept, a batch, bad params) leaves nothing behind.
    if (!transport.isInitialized) {
      await server.close().catch(() => {})
      return
    }
    this.sessions.set(id, { principal, transport, server, lastActivity: Date.now(), active: 0 })
  }

  private forward(id: string, session: LegacySession, exchange: LegacyExchange): void {
    session.lastActivity = Date.now()
    if (exchange.req.method === 'POST') {
      // In flight until the whole response is sent (an SSE stream may wait on a person).
      session.active += 1
      exchange.res.once('close', () => {
        session.active -= 1
        session.lastActivity = Date.now()
      })
    }
    session.transport.handle(exchange, () => void this.close(id))
  }

  /** Closes a session: its pending elicitations end with `'cancelled'`. */
  async close(id: string): Promise<void> {
    const session = this.sessions.get(id)
    if (!session) return
    this.sessions.delete(id)
    dropSubscriptions(session.server)
    forgetUrlElicitationsOf(id)
    await session.server.close().catch(() => {})
  }

  private evictIdle(now = Date.now()): void {
    const idle = this.deps.config.sessions.idleTimeoutMs
    for (const [id, session] of this.sessions) {
      if (session.active === 0 && now - session.lastActivity > idle) void this.close(id)
    }
  }

  stats(): SessionStats {
    let active = 0
    for (const session of this.sessions.values()) active += session.active
    return { open: this.sessions.size, active }
  }

  async closeAll(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper)
    await Promise.all([...this.sessions.keys()].map(id => this.close(id)))
  }
}
