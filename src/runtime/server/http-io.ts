import type { H3Event } from 'h3'

/** Why a body could not be read: too large (413) or the stream failed. */
export type BodyReadResult = { ok: true, text: string } | { ok: false, status: 413 | 400, message: string }

/**
 * Reads the raw request body once, refusing it as soon as it passes `limit` bytes (a declared
 * `Content-Length` over the limit is refused before reading anything).
 *
 * @example
 * ```ts
 * const body = await readLimitedBody(event, 4 * 1024 * 1024)
 * if (!body.ok) return jsonRpcError(body.status, -32000, body.message)
 * ```
 */
export async function readLimitedBody(event: H3Event, limit: number): Promise<BodyReadResult> {
  const tooLarge = { ok: false, status: 413, message: `Payload too large: the request body exceeds ${limit} bytes. Send a smaller request, or raise \`mcp.maxBodySize\` (NUXT_MCP_MAX_BODY_SIZE).` } as const
  const declared = Number(event.node.req.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) return tooLarge
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of event.node.req) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk))
      size += buffer.length
      if (size > limit) return tooLarge
      chunks.push(buffer)
    }
  }
  catch (error) {
    return { ok: false, status: 400, message: `The request body could not be read: ${error instanceof Error ? error.message : String(error)}` }
  }
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') }
}

/**
 * An `AbortSignal` that fires when the client goes away before the response finished. h3 does
 * not propagate disconnects, and a waiting elicitation must not outlive its client.
 */
export function disconnectSignal(event: H3Event): AbortSignal {
  const controller = new AbortController()
  event.node.res.once('close', () => {
    if (!event.node.res.writableFinished) controller.abort(new Error('client disconnected'))
  })
  return controller.signal
}

/**
 * Builds the web `Request` the SDK reads, from the already-read body (no second read).
 *
 * @example
 * ```ts
 * const request = toSdkRequest(event, body.text)
 * ```
 */
export function toSdkRequest(event: H3Event, body: string | undefined): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(event.node.req.headers)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const item of value) headers.append(name, item)
    else headers.set(name, value)
  }
  const url = `http://${event.node.req.headers.host ?? 'localhost'}${event.node.req.url ?? '/'}`
  // No `signal`: it makes Request construction measurably slower, and the module's own disconnect
  // signal (in the request scope) is what aborts waiting handlers.
  return new Request(url, { method: event.method, headers, body })
}

/**
 * Writes a web `Response` to the Node response. Event streams get their headers flushed at once
 * (an SSE response with no chunk yet would otherwise send nothing until the first keep-alive)
 * and are piped chunk by chunk with backpressure; other bodies are written in one go.
 */
export async function sendResponse(event: H3Event, response: Response): Promise<void> {
  const res = event.node.res
  res.statusCode = response.status
  response.headers.forEach((value, name) => res.setHeader(name, value))
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
