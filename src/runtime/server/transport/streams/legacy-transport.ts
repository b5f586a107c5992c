import type { IncomingMessage } from 'node:http'
import type { AuthInfo, JSONRPCMessage, JSONRPCRequest, RequestId, Transport, TransportSendOptions } from '@modelcontextprotocol/server'
import { openSseStream, writeJsonRpcError } from './sse'
import type { ResponseSink } from '../http/response-sink'
import { HYDRATE_ID, splitRoutedId } from './routing'
import type { SessionRouting } from './routing'
import { PostStreams } from './post-streams'
import type { LegacyExchange } from './request'
import { isGetStream, parseEventId } from './journal'
import { GetStream } from './get-stream'
import type { JournalBudget } from './journal-budget'
import { isRequest, isResponse, isValidSetLevel } from './message-kinds'
import { readLegacyPost } from './legacy-post'
import { takeQuestionNote } from '../../tasks/store/question-note'

export type { SessionRouting } from './routing'
export type { LegacyExchange } from './request'

/** The first revision whose clients parse a priming event (an event id with empty data) and resume. */
const FIRST_RESUMING_VERSION = '2025-11-25'
const SESSION_CLOSED = 'Session not found: it was closed. Send a new initialize request without the Mcp-Session-Id header.'

/**
 * The SDK `Transport` of one legacy (≤ 2025-11-25) Streamable HTTP session, served on Node's own
 * request and response: the same wire behaviour as the SDK's `WebStandardStreamableHTTPServerTransport`
 * (SSE per POST, one standalone GET stream, DELETE ends the session), without building a web
 * `Request`, `Response` and `ReadableStream` per message.
 *
 * @example
 * ```ts
 * const transport = new NodeSessionTransport(randomUUID())
 * await server.connect(transport)
 * transport.handle({ req, res, body })
 * ```
 */
export class NodeSessionTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: Transport['onmessage']
  private initialized = false
  private closed = false
  /** Whether the session ends everywhere ({@link endEverywhere}), so its streams' copies go with it. */
  private ending = false
  private supportedVersions: string[] = []
  /** The session's POST streams: another instance's client may resume one of them here (shared-link.ts). */
  readonly posts: PostStreams
  /** The session's GET stream (`isOpen`: whether it is open on this instance). */
  readonly get: GetStream
  private hydrated?: () => void

  /** @param budget The process's budget for every session's resumable streams (`mcp.sessions.maxResumableBytes`). */
  constructor(readonly sessionId: string, private readonly routing?: SessionRouting, budget?: JournalBudget) {
    const tag = routing?.instanceId ?? 'local'
    this.posts = new PostStreams(tag, routing?.journals, budget)
    let gets = 0
    this.get = new GetStream(() => `${tag}.g${++gets}`, routing?.journals, routing?.holdGet, budget)
  }

  /**
   * Makes this transport serve a session another instance opened: replays the client's
   * `initialize` (and `initialized`) to the connected server, whose answer goes nowhere.
   */
  async hydrate(initialize: JSONRPCRequest, replay: JSONRPCMessage[] = []): Promise<void> {
    this.initialized = true
    const answered = new Promise<void>((resolve) => { this.hydrated = resolve })
    this.onmessage?.({ ...initialize, id: HYDRATE_ID })
    await answered
    this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/initialized' })
    // What the session set since (its logging level): answers to these go nowhere either.
    for (const message of replay) this.onmessage?.(message)
  }

  /**
   * Writes a message another instance raised to this session's GET stream. A broadcast one only
   * to a stream open here (every instance hears it); one sent to this instance as the holder
   * (`held`) is kept in its journal too. Whether it was kept or written.
   */
  writeToStream(message: JSONRPCMessage, held = false): boolean {
    if (held) return this.get.keep(message)
    return this.get.isOpen && this.get.write(message)
  }

  /** Another instance took this session's GET stream: the one here stops keeping events, unless it took it back since. */
  heldElsewhere(): void {
    const holder = this.routing?.getHolder
    if (holder) void this.get.retireUnless(holder)
  }

  /** A message another instance handed over: an answer to this instance's request, or a cancellation. */
  receive(message: JSONRPCMessage): void {
    const routed = isResponse(message) ? splitRoutedId(message.id) : undefined
    this.onmessage?.(routed ? { ...message, id: routed.id } : message)
  }

  /** Delivers one client message to the server, or to the instance it concerns. */
  private deliver(message: JSONRPCMessage, extra: { authInfo?: AuthInfo }): void {
    const routing = this.routing
    if (routing && isResponse(message)) {
      const routed = splitRoutedId(message.id)
      if (routed && routed.instanceId !== routing.instanceId) return routing.forward(routed.instanceId, message)
      if (routed) return this.onmessage?.({ ...message, id: routed.id }, extra)
    }
    // A cancellation may concern a call another instance runs.
    if (routing && 'method' in message && message.method === 'notifications/cancelled') void routing.broadcast(message)
    // A logging level holds for the session's log messages wherever they are raised: answered
    // once Redis has passed it on, so that the client's next request finds it on any instance.
    // (A level the spec does not know is the SDK's to refuse, before anything keeps it.)
    if (routing && isValidSetLevel(message)) {
      void routing.broadcast(message).finally(() => this.onmessage?.(message, extra))
      return
    }
    this.onmessage?.(message, extra)
  }

  /** True once `initialize` was accepted: only then is the session worth keeping. */
  get isInitialized(): boolean {
    return this.initialized
  }

  async start(): Promise<void> {}

  setSupportedProtocolVersions(versions: string[]): void {
    this.supportedVersions = versions
  }

  /** Serves one HTTP exchange of this session: POST, GET (standalone stream) or DELETE. */
  /** `onDelete` ends the session; `false` when it could not be ended everywhere (503). */
  handle(exchange: LegacyExchange, onDelete: () => void | Promise<boolean>): void {
    const { req, res } = exchange
    if (this.closed) return writeJsonRpcError(res, 404, -32001, SESSION_CLOSED)
    if (req.method === 'POST') return this.post(exchange)
    const versionError = this.protocolVersionError(req)
    if (versionError) return writeJsonRpcError(res, 400, -32000, versionError)
    if (req.method === 'DELETE') {
      // Answered once the session is gone everywhere it was shared, so the client's next
      // request cannot find it.
      void Promise.resolve(onDelete()).then((ended) => {
        if (ended === false) return writeJsonRpcError(res, 503, -32000, 'Service unavailable: the session could not be ended on every instance (the shared state at NUXT_MCP_REDIS_URL is away). Retry the DELETE.')
        res.writeHead(200)
        res.end()
      })
      return
    }
    this.openStandalone(req, res)
  }

  private post(exchange: LegacyExchange): void {
    const { req, res, body, authInfo } = exchange
    const post = readLegacyPost(req, body, this.initialized)
    if ('refusal' in post) return writeJsonRpcError(res, post.refusal.status, post.refusal.code, post.refusal.message)
    const { messages } = post
    if (post.initialize) {
      this.initialized = true
    }
    else {
      const versionError = this.protocolVersionError(req)
      if (versionError) return writeJsonRpcError(res, 400, -32000, versionError)
    }
    const extra = authInfo ? { authInfo } : {}
    const requests = messages.filter(isRequest)
    if (requests.length === 0) {
      for (const message of messages) this.deliver(message, extra)
      res.writeHead(202)
      res.end()
      return
    }
    this.posts.open(res, requests.map(request => request.id), { 'mcp-session-id': this.sessionId }, exchange)
    for (const message of messages) this.deliver(message, extra)
  }

  private openStandalone(req: IncomingMessage, res: ResponseSink): void {
    if (!(req.headers.accept ?? '').includes('text/event-stream')) {
      return writeJsonRpcError(res, 406, -32000, `Not Acceptable: the Accept header is "${req.headers.accept ?? '(none)'}"; the GET stream needs text/event-stream.`)
    }
    const lastEventId = req.headers['last-event-id']
    if (typeof lastEventId === 'string' && lastEventId !== '') return this.resume(lastEventId, res)
    if (this.get.isOpen) {
      return writeJsonRpcError(res, 409, -32000, 'Conflict: this session already has its GET stream open; only one is allowed per session. Close it before opening another.')
    }
    this.get.open(res, { 'mcp-session-id': this.sessionId }, this.posts.resumable)
  }

  /**
   * `GET` + `Last-Event-ID`: resumes the POST stream that event belongs to, here or, through
   * the routing, from the instance that runs its requests. A stream nobody knows any more (its
   * requests answered and delivered, or its events expired) ends at once, as the SDK's own
   * server does.
   */
  private resume(lastEventId: string, res: ResponseSink): void {
    const headers = { 'mcp-session-id': this.sessionId }
    const position = parseEventId(lastEventId)
    if (!position) return writeJsonRpcError(res, 400, -32000, `Bad Request: the Last-Event-ID "${lastEventId.slice(0, 80)}" is not an event id of this server (they look like "<stream>_<n>"). Open the GET stream without it.`)
    if (isGetStream(position.streamId)) return this.resumeGet(position.streamId, position.seq, res, headers)
    if (this.posts.resumeHere(position.streamId, position.seq, res, headers)) return
    if (this.routing?.resume?.(position.streamId, position.seq, res, headers)) return
    openSseStream(res, { headers, flushNow: true }).end()
  }

  /** The GET stream comes back, after what the client has of its journal here, or of another instance's kept in Redis. */
  private resumeGet(streamId: string, seq: number, res: ResponseSink, headers: Record<string, string>): void {
    if (this.get.resumeHere(streamId, seq, res, headers)) return
    const replay = this.routing?.replay?.(streamId) ?? Promise.resolve([])
    void replay.then((events) => {
      // (The session may have closed while Redis was read: nothing would end a stream opened now.)
      if (this.closed) return writeJsonRpcError(res, 404, -32001, SESSION_CLOSED)
      this.get.open(res, headers, this.posts.resumable, { streamId, events: events.filter(event => event.seq > seq) })
    })
  }

  private protocolVersionError(req: IncomingMessage): string | undefined {
    const version = req.headers['mcp-protocol-version']
    if (version === undefined || typeof version !== 'string' || this.supportedVersions.includes(version)) return undefined
    return `Bad Request: unsupported MCP-Protocol-Version header "${version}". This session supports ${this.supportedVersions.join(', ')}.`
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isResponse(message) && 'result' in message) this.noteVersion(message.result)
    if (isResponse(message) && message.id === HYDRATE_ID) return this.hydrated?.()
    if (this.routing && isRequest(message)) message = { ...message, id: `${this.routing.instanceId}.${message.id}` }
    if (isRequest(message)) {
      const { request, note } = takeQuestionNote(message)
      message = request
      if (note) this.routing?.notePush(String(request.id), note)
    }
    const id = isResponse(message) ? message.id : options?.relatedRequestId
    if (id === undefined) {
      // Server-initiated traffic unrelated to a request goes to the GET stream, if one is open
      // here; with shared sessions, to the instance that holds it: a request (a question, which
      // a call waits for) until that instance kept it.
      if (this.routing && isRequest(message) && !this.get.isOpen) return this.routing.toHolder(message, () => this.get.keep(message))
      if (!this.get.write(message)) this.routing?.toStream(message)
      return
    }
    this.posts.send(message, id)
  }

  /** The answer to `initialize` says which version the session speaks: from 2025-11-25 on, its streams are resumable. */
  private noteVersion(result: unknown): void {
    if (this.posts.resumable || typeof result !== 'object' || result === null || !('serverInfo' in result) || !('protocolVersion' in result)) return
    const version = result.protocolVersion
    this.posts.resumable = typeof version === 'string' && version >= FIRST_RESUMING_VERSION && this.supportedVersions.includes(version)
  }

  /**
   * The session ends everywhere, not only here (DELETE, made room for, or ended on another
   * instance): the coming {@link close} removes the copies of its streams too.
   *
   * @example
   * ```ts
   * transport.endEverywhere()
   * await server.close()
   * ```
   */
  endEverywhere(): void {
    this.ending = true
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.posts.closeAll(this.ending)
    this.get.close()
    this.onclose?.()
  }
}
