import type { H3Event } from 'h3'

/**
 * The body Nitro already read into its stand-in request (`rawBody` or `body`: a string, an
 * ArrayBuffer or a Buffer), as bytes; `undefined` on a real Node request, whose body streams.
 */
function bufferedBody(event: H3Event): Uint8Array | undefined {
  const req = event.node.req
  const body: unknown = Reflect.get(req, 'rawBody') ?? Reflect.get(req, 'body')
  if (typeof body === 'string') return new TextEncoder().encode(body)
  if (body instanceof ArrayBuffer) return new Uint8Array(body)
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength)
  return undefined
}

/** How much of a refused body is read and discarded, beyond the limit, before the connection is cut. */
const MAX_DISCARDED_BYTES = 16 * 1024 * 1024

/** Why a body could not be read: too large (413) or the stream failed. */
export type BodyReadResult = { ok: true, text: string } | { ok: false, status: 413 | 400, message: string }

/**
 * Reads the raw request body once, refusing it as soon as it passes `limit` bytes, chunked or
 * not (a declared `Content-Length` over the limit is refused before reading anything). `remedy`
 * ends the 413 message. Shared by the MCP endpoint and the host side's respond route.
 *
 * @example
 * ```ts
 * const body = await readLimitedBody(event, 4 * 1024 * 1024)
 * if (!body.ok) return jsonRpcError(body.status, -32000, body.message)
 * ```
 */
export function readLimitedBody(event: H3Event, limit: number, remedy = 'Send a smaller request, or raise `mcp.maxBodySize` (NUXT_MCP_MAX_BODY_SIZE).'): Promise<BodyReadResult> {
  const tooLarge = { ok: false, status: 413, message: `Payload too large: the request body exceeds ${limit} bytes. ${remedy}` } as const
  const req = event.node.req
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(tooLarge)
  // Workers, Bun, Deno: Nitro read the whole body already and hands h3 a stand-in request that
  // never emits data.
  const buffered = bufferedBody(event)
  if (buffered !== undefined) return Promise.resolve(buffered.length > limit ? tooLarge : { ok: true, text: new TextDecoder().decode(buffered) })
  // Plain stream events, not `for await`: the async iterator costs more than the read itself.
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer | string) => {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)
      size += buffer.length
      if (size > limit) {
        done(tooLarge)
        // The rest of the body is read and thrown away, not left unread: a client still sending
        // to a connection that closes gets a reset, and with it may lose the 413 it has not read
        // yet. Past a bound the connection is cut off all the same.
        let discarded = 0
        req.on('data', (rest: Buffer | string) => {
          discarded += rest.length
          if (discarded > limit + MAX_DISCARDED_BYTES) req.socket.destroy()
        })
        return
      }
      chunks.push(buffer)
    }
    const onEnd = () => done({ ok: true, text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8') })
    const onError = (error: Error) => done({ ok: false, status: 400, message: `The request body could not be read: ${error.message}` })
    const done = (result: BodyReadResult) => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
      resolve(result)
    }
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onError)
  })
}
