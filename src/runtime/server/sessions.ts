import { randomUUID } from 'node:crypto'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server'
import type { AuthInfo, Server } from '@modelcontextprotocol/server'
import { jsonRpcError } from './http-errors'
import type { HandlerDeps } from './handlers'
import { createMcpServer } from './server-factory'
import { dropSubscriptions } from './subscriptions'

interface LegacySession {
  /** Who opened it (from `mcp:auth`): only they may use it. */
  principal: string | undefined
  transport: WebStandardStreamableHTTPServerTransport
  server: Server
  lastActivity: number
  /** POST exchanges whose response has not finished: a session with one is never idle. */
  active: number
}

/** Counts for leak tests and the dev banner; not public API. */
export interface SessionStats { open: number, active: number }

function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body]
  return messages.some(message => typeof message === 'object' && message !== null && 'method' in message && message.method === 'initialize')
}

/** Lets the endpoint report when a response has been fully sent (or abandoned by the client). */
export interface ResponseLifecycle {
  afterSend?: () => void
}

/**
 * The legacy (≤ 2025-11-25) half of the endpoint: `initialize` opens a session with its own SDK
 * server and streamable HTTP transport; later requests find it by `Mcp-Session-Id`.
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

  /** Serves one legacy HTTP request (POST, GET stream or DELETE). */
  async handle(request: Request, parsedBody: unknown, caller: { principal?: string, authInfo?: AuthInfo }, onSession: (id: string) => void, lifecycle: ResponseLifecycle = {}): Promise<Response> {
    const { authInfo } = caller
    const sessionId = request.headers.get('mcp-session-id')
    if (sessionId) {
      const session = this.sessions.get(sessionId)
      if (!session) return jsonRpcError(404, -32001, `Session not found: the Mcp-Session-Id "${sessionId.slice(0, 64)}" is unknown or expired. Send a new initialize request without the header.`)
      if (session.principal !== caller.principal) {
        return jsonRpcError(403, -32000, 'Forbidden: this Mcp-Session-Id was opened by another principal. Initialize a session of your own.')
      }
      onSession(sessionId)
      return this.forward(session, request, parsedBody, authInfo, lifecycle)
    }
    if (request.method !== 'POST' || !isInitialize(parsedBody)) {
      return jsonRpcError(400, -32000, 'Bad Request: missing Mcp-Session-Id header. Send initialize first (legacy clients), or send a 2026-07-28 request with params._meta["io.modelcontextprotocol/protocolVersion"].')
    }
    if (this.sessions.size >= this.deps.config.sessions.max) {
      return jsonRpcError(503, -32000, `Too many open MCP sessions (${this.deps.config.sessions.max}). Retry later, or raise \`mcp.sessions.max\` (NUXT_MCP_SESSIONS_MAX).`)
    }
    return this.open(request, parsedBody, caller, onSession)
  }

  private async open(request: Request, parsedBody: unknown, caller: { principal?: string, authInfo?: AuthInfo }, onSession: (id: string) => void): Promise<Response> {
    const { authInfo } = caller
    const server = createMcpServer(this.deps, 'legacy')
    let session: LegacySession | undefined
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        session = { principal: caller.principal, transport, server, lastActivity: Date.now(), active: 0 }
        this.sessions.set(id, session)
        onSession(id)
      },
      onsessionclosed: id => void this.close(id),
    })
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId)
    }
    await server.connect(transport)
    const response = await transport.handleRequest(request, { parsedBody, authInfo })
    if (!session) await server.close().catch(() => {})
    return response
  }

  private async forward(session: LegacySession, request: Request, parsedBody: unknown, authInfo: AuthInfo | undefined, lifecycle: ResponseLifecycle): Promise<Response> {
    session.lastActivity = Date.now()
    if (request.method !== 'POST') return session.transport.handleRequest(request, { parsedBody, authInfo })
    // In flight until the endpoint has sent the whole response (an SSE stream may wait on a person).
    session.active += 1
    lifecycle.afterSend = () => {
      session.active -= 1
      session.lastActivity = Date.now()
    }
    return session.transport.handleRequest(request, { parsedBody, authInfo })
  }

  /** Closes a session: its pending elicitations end with `'cancelled'`. */
  async close(id: string): Promise<void> {
    const session = this.sessions.get(id)
    if (!session) return
    this.sessions.delete(id)
    dropSubscriptions(session.server)
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
