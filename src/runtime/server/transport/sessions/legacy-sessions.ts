import type { Server } from '@modelcontextprotocol/server'
import { jsonRpcError } from '../http/errors'
import type { HandlerDeps } from '../../mcp/server/handlers'
import { NodeSessionTransport } from '../streams/legacy-transport'
import type { JournalBudget } from '../streams/journal-budget'
import type { LegacyExchange } from '../streams/legacy-transport'
import { createMcpServer } from '../../mcp/server/server-factory'
import { beginSession, forgetSession } from '../../mcp/server/session-lifecycle'
import { trackLegacyServer } from '../../mcp/server/list-changes'
import { completeLocalUrlElicitation } from '../../elicitation/url-completion'
import { SharedSessionLink } from '../shared/link'
import { RecentlyEnded, SessionTable } from './table'
import { countInFlight } from './in-flight'
import type { TabledSession } from './table'
import { RECORD_TTL_WITHOUT_IDLE_MS } from '../shared/sessions'
import type { SharedSessionDirectory } from '../shared/sessions'
import type { SessionUpdate } from '../shared/envelopes'
import { callerKeyOf } from '../../common/context'
import { initializeForHydration, initializeOf, isInitialize, isSessionId } from '../streams/request'
import type { LegacyCaller } from '../streams/request'
import { sessionTagOf } from '../../elicitation/state'

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

/**
 * The legacy (≤ 2025-11-25) half of the endpoint: `initialize` opens a session with its own SDK
 * server and Node transport; later requests find it by `Mcp-Session-Id`.
 */
export class LegacySessions {
  private readonly sessions = new SessionTable<LegacySession>()
  private sweeper?: ReturnType<typeof setInterval>
  /** Sessions another instance opened, being made ready here: one hydration per id at a time. */
  private readonly hydrating = new Map<string, Promise<LegacySession | Response>>()
  private readonly link?: SharedSessionLink
  /** Sessions ended for good lately: a load under way must not bring one back. */
  private readonly ended = new RecentlyEnded()
  /** What other instances said about a session while it was being set up here: delivered once it is. */
  private readonly heldBack = new Map<string, SessionUpdate[]>()

  /**
   * @param shared With `NUXT_MCP_REDIS_URL`: the directory every instance shares, so any
   * instance serves any session. Without it, sessions live in this process.
   * @param journals What every session's resumable streams draw on: the process's one budget,
   * shared by its endpoints (`createLegacySessions`, `mcp.sessions.maxResumableBytes`).
   */
  constructor(private readonly deps: HandlerDeps, shared: Promise<SharedSessionDirectory> | undefined, private readonly journals: JournalBudget) {
    if (shared) this.link = new SharedSessionLink(this.deps.route, shared, envelope => this.receive(envelope), id => this.sessions.get(id)?.transport, id => sessionTagOf(this.deps.secret, id))
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
    const id = crypto.randomUUID()
    const owner = callerKeyOf(caller.principal, caller.address)
    const room = await this.makeRoom(id, owner)
    if (room instanceof Response) return room
    try {
      return await this.open(id, { ...exchange, ...(caller.authInfo && { authInfo: caller.authInfo }) }, caller, onSession)
    }
    finally {
      room.release()
      // Admitted but not opened (refused, Redis away): its place in the shared rankings goes too.
      if (this.link && !this.sessions.get(id)) void this.link.remove(id, owner, false)
    }
  }

  /**
   * Room for one more session of `owner`, under the caps: counted in this process, or with shared
   * sessions across all instances. Resolves with what gives the held place back.
   */
  private async makeRoom(id: string, owner: string): Promise<Response | { release: () => void }> {
    const caps = this.deps.config.sessions
    if (this.link) return this.link.admit(id, owner, caps, other => (this.sessions.get(other)?.active ?? 0) > 0, other => this.end(other))
    // In one process no I/O separates the check from the add (open() awaits none): nothing to hold.
    const room = this.sessions.makeRoom(owner, caps)
    if (room instanceof Response) return room
    for (const victim of room) void this.close(victim, true)
    return { release: () => {} }
  }

  /** Opens a session in the place `makeRoom` held (given back by the caller once this is done). */
  private async open(id: string, exchange: LegacyExchange, caller: LegacyCaller, onSession: (id: string) => void): Promise<Response | undefined> {
    const owner = callerKeyOf(caller.principal, caller.address)
    const directory = await this.link?.directory()
    if (directory instanceof Response) return directory
    const initialize = initializeOf(exchange.body)
    // Shared before the client can learn the id, so its next request finds it on any instance.
    if (this.link && initialize) {
      const refused = await this.link.share(id, { ...(caller.principal !== undefined && { principal: caller.principal }), owner, initialize: initializeForHydration(initialize), created: Date.now() })
      if (refused) return refused
    }
    const { server, transport } = await this.connect(id, directory)
    onSession(id)
    transport.handle(exchange, () => this.end(id))
    // A refused initialize (wrong Accept, a batch, bad params) leaves nothing behind.
    if (!transport.isInitialized) {
      await server.close().catch(() => {})
      await this.link?.remove(id, owner, false)
      return undefined
    }
    this.sessions.add(id, { principal: caller.principal, owner, transport, server, lastActivity: Date.now(), active: 0, touched: Date.now() })
    beginSession(id, this.deps.route)
    return undefined
  }

  private async connect(id: string, directory: SharedSessionDirectory | undefined): Promise<{ server: Server, transport: NodeSessionTransport }> {
    const server = createMcpServer(this.deps, 'legacy')
    const transport = new NodeSessionTransport(id, directory && this.link?.routing(directory, id), this.journals)
    // (With several instances, only the one holding the GET stream tells the session of list changes.)
    const untrack = trackLegacyServer(this.deps.route, server, () => !this.link || transport.get.isOpen)
    transport.onclose = () => {
      // (Closed by its transport rather than by close(): what it kept goes too.)
      if (this.sessions.remove(id)) forgetSession(id, server, this.deps.route)
      untrack()
    }
    await server.connect(transport)
    return { server, transport }
  }

  /**
   * A session this process does not hold: with a shared directory, one another instance opened
   * is set up here (its `initialize` replayed to a server of this instance); otherwise 404.
   */
  private hydrate(id: string): Promise<LegacySession | Response> {
    const pending = this.hydrating.get(id)
    if (pending) return pending
    const done = this.loadShared(id).finally(() => {
      this.hydrating.delete(id)
      const held = this.heldBack.get(id) ?? []
      this.heldBack.delete(id)
      for (const envelope of held) this.receive(envelope)
    })
    this.hydrating.set(id, done)
    return done
  }

  private async loadShared(id: string): Promise<LegacySession | Response> {
    const notFound = jsonRpcError(404, -32001, `Session not found: the Mcp-Session-Id "${id.slice(0, 64)}" is unknown or expired. Send a new initialize request without the header.`)
    // Only ids this module could have made (random UUIDs) are looked up in Redis.
    if (!isSessionId(id) || this.ended.has(id)) return notFound
    const directory = await this.link?.directory()
    if (!this.link || !directory) return notFound
    if (directory instanceof Response) return directory
    const record = await this.link.load(id)
    if (record instanceof Response) return record
    if (!record) return notFound
    const settings = await this.link.settingsOf(id)
    if (settings instanceof Response) return settings
    const { server, transport } = await this.connect(id, directory)
    await transport.hydrate(record.initialize, settings)
    if (this.ended.has(id)) {
      // Ended (on another instance, or here) while it was being loaded.
      await server.close().catch(() => {})
      return notFound
    }
    const session: LegacySession = { principal: record.principal, owner: record.owner, transport, server, lastActivity: Date.now(), active: 0, touched: Date.now() }
    this.sessions.add(id, session)
    beginSession(id, this.deps.route)
    return session
  }

  /** An envelope from another instance: an answer or cancellation for a session held here, or a session's end. */
  private receive(envelope: SessionUpdate): void {
    if (envelope.kind === 'url-complete') return void completeLocalUrlElicitation(envelope.elicitationId)
    if (envelope.kind === 'closed' && this.link) this.ended.add(envelope.sessionId)
    const session = this.sessions.get(envelope.sessionId)
    if (!session && this.hydrating.has(envelope.sessionId)) this.heldBack.set(envelope.sessionId, [...this.heldBack.get(envelope.sessionId) ?? [], envelope])
    if (!session) return
    if (envelope.kind === 'closed') return void this.close(envelope.sessionId, true)
    if (envelope.kind === 'stream') return void session.transport.writeToStream(envelope.message)
    if (envelope.kind === 'get-held') return session.transport.heldElsewhere()
    session.transport.receive(envelope.message)
  }

  /**
   * Ends a session for good (DELETE, or made room for): here, in the shared directory, and on
   * every instance. `false` when the shared record could not be removed.
   */
  private async end(id: string): Promise<boolean> {
    const owner = this.sessions.get(id)?.owner
    if (this.link) this.ended.add(id)
    await this.close(id, true)
    return await this.link?.remove(id, owner, true) ?? true
  }

  private forward(id: string, session: LegacySession, exchange: LegacyExchange): void {
    session.lastActivity = Date.now()
    // (A DELETE's touch could rank the session again after its removal.)
    if (exchange.req.method !== 'DELETE') this.touchShared(id, session)
    // A POST is in flight until its response is sent, or its requests are done (a stream that
    // waits for its client to resume): meanwhile the session is busy, on every instance.
    const holdInFlight = exchange.req.method === 'POST' ? countInFlight(session, exchange.res, this.link?.lease(id)) : undefined
    session.transport.handle({ ...exchange, ...(holdInFlight && { holdInFlight }) }, () => this.end(id))
  }

  /**
   * Pushes the shared record's expiry back, at most every quarter of the idle timeout and without
   * waiting: an ordinary request makes no Redis round trip of its own.
   */
  private touchShared(id: string, session: LegacySession): void {
    // (With idle eviction off, records live a day: a touch every six hours keeps them.)
    const idle = this.deps.config.sessions.idleTimeoutMs || RECORD_TTL_WITHOUT_IDLE_MS
    if (!this.link || Date.now() - session.touched < idle / 4) return
    session.touched = Date.now()
    this.link.touch(id, session.owner, () => void this.close(id))
  }

  /**
   * Closes a session here: its pending elicitations end with `'cancelled'`. `everywhere` when it
   * ended for good (DELETE, made room for, or ended on another instance): its streams' copies in
   * Redis go too. Otherwise (this process stops, or the session went idle here) they stay, for
   * the instance its client resumes on.
   */
  async close(id: string, everywhere = false): Promise<void> {
    const session = this.sessions.remove(id)
    if (!session) return
    if (everywhere) session.transport.endEverywhere()
    forgetSession(id, session.server, this.deps.route)
    await session.server.close().catch(() => {})
  }

  private evictIdle(): void {
    for (const id of this.sessions.idle(this.deps.config.sessions.idleTimeoutMs)) void this.close(id)
  }

  stats(): SessionStats {
    return { open: this.sessions.size, active: [...this.sessions.values()].reduce((sum, session) => sum + session.active, 0) }
  }

  async closeAll(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper)
    this.link?.close()
    await Promise.all(this.sessions.ids().map(id => this.close(id)))
  }
}
