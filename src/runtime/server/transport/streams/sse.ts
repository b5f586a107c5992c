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
  let closed = false
  // No `Connection` header of ours: Node then sends its own `Connection: keep-alive` with
  // `Keep-Alive: timeout=5`, which tells clients how long an idle socket is kept (keep-alive.ts).
  const headers = {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
    ...options.headers,
  }
  // Headers are written late so that an answer ready at once goes out as one write with a
  // Content-Length, instead of headers, a chunk and the chunked terminator.
  const writeHead = (flush: boolean) => {
    if (res.headersSent) return
    res.writeHead(200, headers)
    if (flush) res.flushHeaders()
  }
  let keepAlive: ReturnType<typeof setInterval> | undefined
  const finish = () => {
    if (closed) return
    closed = true
    clearInterval(keepAlive)
    clearImmediate(flush)
    options.onClose?.()
  }
  const startKeepAlive = () => {
    keepAlive = setInterval(() => {
      if (closed) return
      writeHead(false)
      res.write(': keepalive\n\n')
    }, options.keepAliveMs ?? res.keepAliveMs ?? KEEP_ALIVE_MS)
    // Not every runtime's timers have unref (Deno's are numbers).
    if (typeof keepAlive === 'object' && 'unref' in keepAlive) keepAlive.unref()
  }
  // A handler still working after this turn (a person to ask, a slow API) must not leave the
  // client without headers: clients wait for them before reading events. Only such a stream
  // needs keep-alives, so most answers never arm the timer.
  const flush = setImmediate(() => {
    if (closed) return
    writeHead(true)
    startKeepAlive()
    options.onFlush?.()
  })
  // A client that left before the stream opened (while hooks or a lookup were awaited) has had
  // its 'close' already: nothing would ever end this stream.
  if (res.destroyed || res.writableEnded) {
    // (On the next microtask: the caller holds the stream by then, as its onClose expects.)
    queueMicrotask(finish)
    return { write: () => false, prime: () => {}, end: () => {}, closed: true }
  }
  if (options.flushNow) writeHead(true)
  res.once('close', finish)
  return {
    write(message, id) {
      if (closed || res.destroyed) return false
      writeHead(false)
      res.write(formatEvent(message, id))
      return true
    },
    prime(id, retryMs) {
      if (closed || res.destroyed) return
      writeHead(false)
      // Typed `prime`, not the default `message`: clients that read every untyped event as
      // JSON-RPC (@ai-sdk/mcp) skip it, while SDK clients take its id whatever its type, and a
      // browser's EventSource dispatches no event with empty data.
      res.write(`event: prime\nid: ${id}\nretry: ${retryMs}\ndata: \n\n`)
    },
    end(last, id) {
      if (closed) return
      if (res.destroyed) {
        finish()
        return
      }
      const text = last ? formatEvent(last, id) : ''
      if (!res.headersSent) res.writeHead(200, { ...headers, 'content-length': Buffer.byteLength(text) })
      res.end(text)
      finish()
    },
    get closed() {
      return closed || res.destroyed
    },
  }
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
