import type { H3Event } from 'h3'
import type { ResponseSink } from '../http/response-sink'

/** The client's going away, as the request scope sees it. */
export interface DisconnectWatch {
  /** Aborts when the client went away before the response finished. */
  signal: () => AbortSignal
  /**
   * From now on a dropped connection does not abort by itself: the caller is handed the abort,
   * to run once the client is gone for good (a resumable stream waits for its client to come back).
   */
  defer: () => () => void
}

/**
 * Watches for the client going away before the response finished. h3 does not propagate
 * disconnects, and a waiting elicitation must not outlive its client. The `AbortSignal` is only
 * built when someone asks for it: most requests finish without anyone listening.
 *
 * @example
 * ```ts
 * const disconnected = watchDisconnect(event.node.res)
 * await waitForPerson({ signal: disconnected.signal() })
 * ```
 */
export function watchDisconnect(res: ResponseSink): DisconnectWatch {
  let controller: AbortController | undefined
  let gone = false
  let deferred = false
  const abort = () => {
    gone = true
    controller?.abort(new Error('client disconnected'))
  }
  res.once('close', () => {
    if (res.writableFinished || deferred) return
    abort()
  })
  return {
    signal: () => {
      if (!controller) {
        controller = new AbortController()
        if (gone) controller.abort(new Error('client disconnected'))
      }
      return controller.signal
    },
    defer: () => {
      deferred = true
      return abort
    },
  }
}

/**
 * Builds the web `Request` the SDK reads: method, URL and headers, no body. The SDK is handed
 * the already-parsed body (`parsedBody`) and never reads the request's; handlers reach the HTTP
 * request through the h3 event. A body would cost a web stream on every request.
 *
 * @example
 * ```ts
 * const response = await handler.fetch(toSdkRequest(event), { parsedBody })
 * ```
 */
export function toSdkRequest(event: H3Event): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(event.node.req.headers)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const item of value) headers.append(name, item)
    else headers.set(name, value)
  }
  const url = `http://${event.node.req.headers.host ?? 'localhost'}${event.node.req.url ?? '/'}`
  // No `signal`: it makes Request construction measurably slower, and the module's own disconnect
  // signal (in the request scope) is what aborts waiting handlers.
  return new Request(url, { method: event.method, headers })
}

/**
 * Writes a web `Response` to the Node response. Event streams get their headers flushed at once
 * (an SSE response with no chunk yet would otherwise send nothing until the first keep-alive)
 * and are piped chunk by chunk with backpressure; other bodies are written in one go.
 */
export async function sendResponse(event: H3Event, response: Response): Promise<void> {
  const res = event.node.res
  res.statusCode = response.status
  // Connection management stays Node's: with a `Connection` header of the SDK's, Node would drop
  // its `Keep-Alive: timeout=5` hint (see sse-stream.ts).
  response.headers.forEach((value, name) => {
    if (name !== 'connection' && name !== 'keep-alive') res.setHeader(name, value)
  })
  const isStream = (response.headers.get('content-type') ?? '').startsWith('text/event-stream')
  if (!response.body) {
    res.end()
    return
  }
  if (!isStream) {
    res.end(Buffer.from(await response.arrayBuffer()))
    return
  }
  res.flushHeaders()
  const reader = response.body.getReader()
  res.once('close', () => void reader.cancel().catch(() => {}))
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done || res.destroyed) break
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          res.once('drain', resolve)
          res.once('close', resolve)
        })
      }
    }
  }
  catch {
    // The client went away mid-stream; nothing left to send.
  }
  if (!res.writableEnded) res.end()
}

/** Parses a request body as JSON, or says why it is not. */
export function parseJson(text: string): { ok: true, value: unknown } | { ok: false, message: string } {
  try {
    return { ok: true, value: JSON.parse(text) }
  }
  catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) }
  }
}

/** Whether a `Content-Type` header names JSON (parameters such as `charset` aside). */
export function isJsonContentType(value: string | undefined): boolean {
  return (value ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json'
}
