import type { ResponseSink } from '../http/response-sink'
import type { JSONRPCMessage } from '@modelcontextprotocol/server'

/** Comment lines every 15 s keep proxies from closing a stream that waits on a person. */
const KEEP_ALIVE_MS = 15_000

/** One Server-Sent Events response, written straight to the Node response. */
export interface SseStream {
  /** Writes one JSON-RPC message as an SSE `message` event (with its event `id`, if any); false once the stream is gone. */
  write: (message: JSONRPCMessage, id?: string) => boolean
  /**
   * Writes a priming event: an event id with empty data, and the `retry:` hint, which tell the
   * client where to resume from, and when, should the connection drop.
   */
  prime: (id: string, retryMs: number) => void
  /** Ends the response (idempotent). */
  end: (last?: JSONRPCMessage, id?: string) => void
  /** True once the response ended or the client went away. */
  readonly closed: boolean
}

export interface OpenSseOptions {
  /** Extra response headers (e.g. `mcp-session-id`). */
  headers?: Record<string, string>
  /**
   * Send the headers now. Otherwise they go out with the first event, or on the next turn of the
   * event loop at the latest: an answer that is ready at once then travels in one write.
   */
  flushNow?: boolean
  /** Called once when the stream ends, whoever ended it. */
  onClose?: () => void
  /** Milliseconds between keep-alive comments on a stream that stays open (default 15 000). */
  keepAliveMs?: number
  /** Called once when the stream turns out to stay open: its answer was not ready at once. */
  onFlush?: () => void
}

function formatEvent(message: JSONRPCMessage, id: string | undefined): string {
  return id === undefined ? `event: message\ndata: ${JSON.stringify(message)}\n\n` : `event: message\nid: ${id}\ndata: ${JSON.stringify(message)}\n\n`
}

/** A stream whose client left before it opened: it writes nothing and is closed already. */
const GONE: SseStream = { write: () => false, prime: () => {}, end: () => {}, closed: true }

/**
 * Opens an SSE response on a Node `ServerResponse` (or a {@link ResponseSink}), without the web `ReadableStream` and
 * `Response` the SDK's web-standard transport needs: on the legacy hot path those conversions
 * cost more than the MCP work itself.
 *
 * @example
 * ```ts
 * const stream = openSseStream(res, { headers: { 'mcp-session-id': id } })
 * stream.end({ jsonrpc: '2.0', id: 1, result: {} })
 * ```
 */
export function openSseStream(res: ResponseSink, options: OpenSseOptions = {}): SseStream {
  // A client that left before the stream opened (while hooks or a lookup were awaited) has had
  // its 'close' already: nothing would ever end this stream.
  if (res.destroyed || res.writableEnded) {
    // (On the next microtask: the caller holds the stream by then, as its onClose expects.)
    if (options.onClose) queueMicrotask(options.onClose)
    return GONE
  }
  return new NodeSseStream(res, options)
}

/**
 * One SSE response. A class, not an object literal of closures with a `closed` getter: V8 builds
 * a literal's getter as an accessor pair in the old generation, and that pair, garbage from the
 * end of the request on, keeps the getter's closure (and through it the request's response,
 * event and scope) alive through every young-generation GC until the next full one. Per legacy
 * request that was kilobytes surviving each scavenge, and longer scavenges: the legacy tail
 * (bench/measure/scavenge.mjs). A getter on the prototype is built once.
 */
class NodeSseStream implements SseStream {
  #closed = false
  #keepAlive: ReturnType<typeof setInterval> | undefined
  #flush: ReturnType<typeof setImmediate> | undefined
  readonly #headers: Record<string, string>

  constructor(private readonly res: ResponseSink, private readonly options: OpenSseOptions) {
    // No `Connection` header of ours: Node then sends its own `Connection: keep-alive` with
    // `Keep-Alive: timeout=5`, which tells clients how long an idle socket is kept (keep-alive.ts).
    this.#headers = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no', ...options.headers }
    // A handler still working after this turn (a person to ask, a slow API) must not leave the
    // client without headers: clients wait for them before reading events. Only such a stream
    // needs keep-alives, so most answers never arm the timer.
    this.#flush = setImmediate(flushLater, this)
    if (options.flushNow) this.writeHead(true)
    res.once('close', this.finish)
  }

  get closed(): boolean {
    return this.#closed || this.res.destroyed
  }

  write(message: JSONRPCMessage, id?: string): boolean {
    if (this.#closed || this.res.destroyed) return false
    this.writeHead(false)
    this.res.write(formatEvent(message, id))
    return true
  }

  prime(id: string, retryMs: number): void {
    if (this.#closed || this.res.destroyed) return
    this.writeHead(false)
    // Typed `prime`, not the default `message`: clients that read every untyped event as
    // JSON-RPC (@ai-sdk/mcp) skip it, while SDK clients take its id whatever its type, and a
    // browser's EventSource dispatches no event with empty data.
    this.res.write(`event: prime\nid: ${id}\nretry: ${retryMs}\ndata: \n\n`)
  }

  end(last?: JSONRPCMessage, id?: string): void {
    if (this.#closed) return
    if (this.res.destroyed) return this.finish()
    const text = last ? formatEvent(last, id) : ''
    // Headers are written late so that an answer ready at once goes out as one write with a
    // Content-Length, instead of headers, a chunk and the chunked terminator.
    if (!this.res.headersSent) this.res.writeHead(200, { ...this.#headers, 'content-length': Buffer.byteLength(text) })
    this.res.end(text)
    this.finish()
  }

  /** The answer was not ready within the turn the stream opened in: headers out, keep-alives on. */
  opened(): void {
    this.#flush = undefined
    if (this.#closed) return
    this.writeHead(true)
    this.#keepAlive = setInterval(keepAlive, this.options.keepAliveMs ?? this.res.keepAliveMs ?? KEEP_ALIVE_MS, this)
    // Not every runtime's timers have unref (Deno's are numbers).
    if (typeof this.#keepAlive === 'object' && 'unref' in this.#keepAlive) this.#keepAlive.unref()
    this.options.onFlush?.()
  }

  /** Sends a keep-alive comment (the interval's tick). */
  ping(): void {
    if (this.#closed) return
    this.writeHead(false)
    this.res.write(': keepalive\n\n')
  }

  /** Ends the stream's own work, once, whoever ended it (an arrow: it is the response's 'close' listener). */
  private readonly finish = (): void => {
    if (this.#closed) return
    this.#closed = true
    clearInterval(this.#keepAlive)
    clearImmediate(this.#flush)
    this.options.onClose?.()
  }

  private writeHead(flush: boolean): void {
    if (this.res.headersSent) return
    this.res.writeHead(200, this.#headers)
    if (flush) this.res.flushHeaders()
  }
}

// Module-level callbacks with the stream as their argument: no closure per stream for timers.
function flushLater(stream: NodeSseStream): void {
  stream.opened()
}
function keepAlive(stream: NodeSseStream): void {
  stream.ping()
}

/**
 * Writes a JSON-RPC error as a plain JSON response on the Node response.
 *
 * @example
 * ```ts
 * writeJsonRpcError(res, 406, -32000, 'Not Acceptable: …')
 * ```
 */
export function writeJsonRpcError(res: ResponseSink, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }))
}
