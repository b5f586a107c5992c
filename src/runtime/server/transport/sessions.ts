import { isJSONRPCRequest } from '@modelcontextprotocol/server'
import type { AuthInfo, JSONRPCRequest, Server } from '@modelcontextprotocol/server'
import { jsonRpcError } from './http-errors'
import type { HandlerDeps } from '../mcp/handlers'
import { NodeSessionTransport } from './legacy-transport'
import type { LegacyExchange } from './legacy-transport'
import { createMcpServer } from '../mcp/server-factory'
import { dropSubscriptions } from '../mcp/subscriptions'
import { completeLocalUrlElicitation, forgetUrlElicitationsOf, relayUrlCompletions } from '../elicitation/url-completion'
import { createUrlCompletionRelay, logLost, unavailableResponse } from './shared-sessions'
import { SessionTable } from './session-table'
import type { TabledSession } from './session-table'
import type { SessionEnvelope, SessionRecord, SharedSessionDirectory } from './shared-sessions'

interface LegacySession extends TabledSession {
  /** Who opened it (from `mcp:auth`): only they may use it. */
  principal: string | undefined
  transport: NodeSessionTransport
  server: Server
  /** When the shared record's expiry was last pushed back (shared sessions only). */
  touched: number
}

/** Counts for leak tests and the dev banner; not public API. */
export interface SessionStats { open: number, active: number }

/** Who is calling, as the `mcp:auth` hooks decided, and from where (for anonymous callers). */
export interface LegacyCaller { principal?: string, authInfo?: AuthInfo, address: string }

function ownerOf(caller: LegacyCaller): string {
  return caller.principal !== undefined ? `principal:${caller.principal}` : `address:${caller.address}`
}

/** The `initialize` request a POST carries alone, as it must be sent. */
function initializeOf(body: unknown): JSONRPCRequest | undefined {
  return isJSONRPCRequest(body) && body.method === 'initialize' ? body : undefined
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
  private readonly sessions = new SessionTable<LegacySession>()
  private sweeper?: ReturnType<typeof setInterval>
  /** Sessions another instance opened, being made ready here: one hydration per id at a time. */
  private readonly hydrating = new Map<string, Promise<LegacySession | Response>>()
  private directory?: Promise<SharedSessionDirectory>

  /**
   * @param shared With `NUXT_MCP_REDIS_URL`: the directory every instance shares, so any
   * instance serves any session. Without it, sessions live in this process.
   */
  constructor(private readonly deps: HandlerDeps, shared?: Promise<SharedSessionDirectory>) {
    if (shared) {
      this.directory = shared.then(async (directory) => {
        await directory.listen(envelope => this.receive(envelope))
        relayUrlCompletions(createUrlCompletionRelay(directory, completeLocalUrlElicitation))
        return directory
      })
      // A failed connection is reported by each request that needs it (a 503); not unhandled here.
      this.directory.catch(() => {})
    }
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
      const found = this.sessions.get(sessionId) ?? await this.hydrate(sessionId)
      if (found instanceof Response) return found
      const session = found
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
    const room = this.sessions.makeRoom(ownerOf(caller), this.deps.config.sessions)
    if (room instanceof Response) return room
    for (const victim of room) void this.close(victim)
    return this.open({ ...exchange, ...(caller.authInfo && { authInfo: caller.authInfo }) }, caller, onSession)
  }

  private async open(exchange: LegacyExchange, caller: LegacyCaller, onSession: (id: string) => void): Promise<Response | undefined> {
    const id = crypto.randomUUID()
    const owner = ownerOf(caller)
    const directory = await this.sharedDirectory()
    if (directory instanceof Response) return directory
    const initialize = initializeOf(exchange.body)
    // Shared before the client can learn the id, so its next request finds it on any instance.
    if (directory && initialize) {
      const saved = await this.shareRecord(directory, id, { ...(caller.principal !== undefined && { principal: caller.principal }), owner, initialize, created: Date.now() })
      if (saved) return saved
    }
    const { server, transport } = await this.connect(id, directory)
    onSession(id)
    transport.handle(exchange, () => this.end(id))
    // A refused initialize (wrong Accept, a batch, bad params) leaves nothing behind.
    if (!transport.isInitialized) {
      await server.close().catch(() => {})
      if (directory) await directory.remove(id).catch(() => {})
      return undefined
    }
    this.sessions.add(id, { principal: caller.principal, owner, transport, server, lastActivity: Date.now(), active: 0, touched: Date.now() })
    return undefined
  }

  private async connect(id: string, directory: SharedSessionDirectory | undefined): Promise<{ server: Server, transport: NodeSessionTransport }> {
    const server = createMcpServer(this.deps, 'legacy')
    const transport = new NodeSessionTransport(id, directory && {
      instanceId: directory.instanceId,
      forward: (instanceId, message) => void directory.sendTo(instanceId, { kind: 'response', sessionId: id, message }).catch(logLost),
      broadcast: message => void directory.broadcast({ kind: 'notification', sessionId: id, message }).catch(logLost),
      toStream: message => void directory.broadcast({ kind: 'stream', sessionId: id, message }).catch(logLost),
    })
    transport.onclose = () => {
      this.sessions.remove(id)
    }
    await server.connect(transport)
    return { server, transport }
  }

  /** The shared directory; `undefined` when sessions are not shared; a 503 when it cannot be had. */
  private async sharedDirectory(): Promise<SharedSessionDirectory | Response | undefined> {
    if (!this.directory) return undefined
    try {
      return await this.directory
    }
    catch (error) {
      return unavailableResponse(error)
    }
  }

  private async shareRecord(directory: SharedSessionDirectory, id: string, record: SessionRecord): Promise<Response | undefined> {
    try {
      await directory.save(id, record)
      return undefined
    }
    catch (error) {
      return unavailableResponse(error)
    }
  }

  /**
   * A session this process does not hold: with a shared directory, one another instance opened
   * is set up here (its `initialize` replayed to a server of this instance); otherwise 404.
   */
  private hydrate(id: string): Promise<LegacySession | Response> {
    const pending = this.hydrating.get(id)
    if (pending) return pending
    const done = this.loadShared(id).finally(() => this.hydrating.delete(id))
    this.hydrating.set(id, done)
    return done
  }

  private async loadShared(id: string): Promise<LegacySession | Response> {
    const notFound = jsonRpcError(404, -32001, `Session not found: the Mcp-Session-Id "${id.slice(0, 64)}" is unknown or expired. Send a new initialize request without the header.`)
    const directory = await this.sharedDirectory()
    if (!directory) return notFound
    if (directory instanceof Response) return directory
    let record: SessionRecord | undefined
    try {
      record = await directory.load(id)
    }
    catch (error) {
      return unavailableResponse(error)
    }
    if (!record) return notFound
    const { server, transport } = await this.connect(id, directory)
    await transport.hydrate(record.initialize)
    const session: LegacySession = { principal: record.principal, owner: record.owner, transport, server, lastActivity: Date.now(), active: 0, touched: Date.now() }
    this.sessions.add(id, session)
    return session
  }

  /** An envelope from another instance: an answer or cancellation for a session held here, or a session's end. */
  private receive(envelope: SessionEnvelope): void {
    if (envelope.kind === 'url-complete') return void completeLocalUrlElicitation(envelope.elicitationId)
    const session = this.sessions.get(envelope.sessionId)
    if (!session) return
    if (envelope.kind === 'closed') return void this.close(envelope.sessionId)
    if (envelope.kind === 'stream') return session.transport.writeToStream(envelope.message)
    session.transport.receive(envelope.message)
  }

  /** Ends a session for good (DELETE): here, in the shared directory, and on every instance. */
  private async end(id: string): Promise<void> {
    await this.close(id)
    const directory = await this.sharedDirectory()
    if (!directory || directory instanceof Response) return
    await directory.remove(id).catch(logLost)
    await directory.broadcast({ kind: 'closed', sessionId: id }).catch(logLost)
  }

  private forward(id: string, session: LegacySession, exchange: LegacyExchange): void {
    session.lastActivity = Date.now()
    this.touchShared(id, session)
    if (exchange.req.method === 'POST') {
      // In flight until the whole response is sent (an SSE stream may wait on a person).
      session.active += 1
      exchange.res.once('close', () => {
        session.active -= 1
        session.lastActivity = Date.now()
      })
    }
    session.transport.handle(exchange, () => this.end(id))
  }

  /**
   * Pushes the shared record's expiry back, at most every quarter of the idle timeout and without
   * waiting: an ordinary request makes no Redis round trip of its own.
   */
  private touchShared(id: string, session: LegacySession): void {
    const idle = this.deps.config.sessions.idleTimeoutMs
    if (!this.directory || Date.now() - session.touched < idle / 4) return
    session.touched = Date.now()
    void this.directory.then(directory => directory.touch(id)).catch(logLost)
  }

  /** Closes a session: its pending elicitations end with `'cancelled'`. */
  async close(id: string): Promise<void> {
    const session = this.sessions.remove(id)
    if (!session) return
    dropSubscriptions(session.server)
    forgetUrlElicitationsOf(id)
    await session.server.close().catch(() => {})
  }

  private evictIdle(): void {
    for (const id of this.sessions.idle(this.deps.config.sessions.idleTimeoutMs)) void this.close(id)
  }

  stats(): SessionStats {
    let active = 0
    for (const session of this.sessions.values()) active += session.active
    return { open: this.sessions.size, active }
  }

  async closeAll(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper)
    if (this.directory) relayUrlCompletions(undefined)
    await Promise.all(this.sessions.ids().map(id => this.close(id)))
  }
}
