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
  /** What the per-principal cap counts by: the principal, or the client address when anonymous. */
  owner: string
  transport: NodeSessionTransport
  server: Server
  lastActivity: number
  /** POST exchanges whose response has not finished: a session with one is never idle. */
  active: number
}

/** Counts for leak tests and the dev banner; not public API. */
export interface SessionStats { open: number, active: number }

/** Who is calling, as the `mcp:auth` hooks decided, and from where (for anonymous callers). */
export interface LegacyCaller { principal?: string, authInfo?: AuthInfo, address: string }

function ownerOf(caller: LegacyCaller): string {
  return caller.principal !== undefined ? `principal:${caller.principal}` : `address:${caller.address}`
}

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
  /** Session ids by owner, for the per-principal cap. */
  private readonly byOwner = new Map<string, Set<string>>()
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
    const refusal = this.makeRoom(ownerOf(caller))
    if (refusal) return refusal
    await this.open({ ...exchange, ...(caller.authInfo && { authInfo: caller.authInfo }) }, caller, onSession)
    return undefined
  }

  /**
   * Makes room for one more session of `owner`: at its per-principal cap, its least recently used
   * idle session is closed; at the global cap, the least recently used idle one of anybody. A
   * session with a request in flight is never closed: when none is idle, the answer is 503.
   */
  private makeRoom(owner: string): Response | undefined {
    const { max, maxPerPrincipal } = this.deps.config.sessions
    const mine = this.byOwner.get(owner)
    if (mine && mine.size >= maxPerPrincipal) {
      const victim = this.leastRecentlyUsedIdle(mine)
      if (!victim) return jsonRpcError(503, -32000, `Too many MCP sessions of one caller (${maxPerPrincipal}), each with a request in flight. Retry later, close sessions you no longer use (DELETE), or raise \`mcp.sessions.maxPerPrincipal\` (NUXT_MCP_SESSIONS_MAX_PER_PRINCIPAL).`)
      void this.close(victim)
    }
    if (this.sessions.size >= max) {
      const victim = this.leastRecentlyUsedIdle(this.sessions.keys())
      if (!victim) return jsonRpcError(503, -32000, `Too many open MCP sessions (${max}), each with a request in flight. Retry later, or raise \`mcp.sessions.max\` (NUXT_MCP_SESSIONS_MAX).`)
      void this.close(victim)
    }
    return undefined
  }

  private leastRecentlyUsedIdle(ids: Iterable<string>): string | undefined {
    let victim: string | undefined
    let oldest = Infinity
    for (const id of ids) {
      const session = this.sessions.get(id)
      if (session && session.active === 0 && session.lastActivity < oldest) {
        oldest = session.lastActivity
        victim = id
      }
    }
    return victim
  }

  private async open(exchange: LegacyExchange, caller: LegacyCaller, onSession: (id: string) => void): Promise<void> {
    const id = crypto.randomUUID()
    const server = createMcpServer(this.deps, 'legacy')
    const transport = new NodeSessionTransport(id)
    transport.onclose = () => {
      this.forget(id)
    }
    await server.connect(transport)
    onSession(id)
    transport.handle(exchange, () => void this.close(id))
    // A refused initialize (wrong Accept, a batch, bad params) leaves nothing behind.
    if (!transport.isInitialized) {
      await server.close().catch(() => {})
      return
    }
    const owner = ownerOf(caller)
    this.sessions.set(id, { principal: caller.principal, owner, transport, server, lastActivity: Date.now(), active: 0 })
    const ids = this.byOwner.get(owner) ?? new Set<string>()
    ids.add(id)
    this.byOwner.set(owner, ids)
  }

  /** Drops a session from the maps (synchronously, so a cap check right after sees the room). */
  private forget(id: string): LegacySession | undefined {
    const session = this.sessions.get(id)
    if (!session) return undefined
    this.sessions.delete(id)
    const ids = this.byOwner.get(session.owner)
    ids?.delete(id)
    if (ids?.size === 0) this.byOwner.delete(session.owner)
    return session
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
    const session = this.forget(id)
    if (!session) return
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
