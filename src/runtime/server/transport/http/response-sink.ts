/**
 * The part of an HTTP response the legacy transport writes to: what Node's `ServerResponse`
 * offers, and what {@link WebResponseSink} offers on runtimes that answer with a web `Response`.
 */
export interface ResponseSink {
  statusCode: number
  readonly headersSent: boolean
  readonly destroyed: boolean
  readonly writableEnded: boolean
  readonly writableFinished: boolean
  writeHead: (status: number, headers?: Record<string, string | number>) => unknown
  setHeader: (name: string, value: string | number | readonly string[]) => unknown
  flushHeaders: () => void
  write: (chunk: string | Uint8Array) => boolean
  end: (chunk?: string | Uint8Array) => unknown
  once: (event: 'close' | 'finish' | 'drain', listener: () => void) => unknown
  /** How often an idle event stream on this response should send a keep-alive, if not the default. */
  readonly keepAliveMs?: number
}

const NULL_BODY = new Set([101, 204, 205, 304])
const encoder = new TextEncoder()

/**
 * A {@link ResponseSink} that becomes a web `Response` with a streamed body: how the legacy
 * transport answers where Nitro hands h3 a stand-in Node response that buffers every write until
 * `end()` (Bun, Deno). `response` resolves as soon as the head goes out (`flushHeaders`, the first
 * `write`, or `end`), so an event stream reaches the client event by event. The client going away
 * cancels the body, which closes the sink (`destroyed`, `close`): the runtime's only disconnect
 * signal there.
 *
 * @example
 * ```ts
 * const sink = new WebResponseSink()
 * transport.handle({ req, res: sink, body }, onDelete)
 * return sink.response
 * ```
 */
export class WebResponseSink implements ResponseSink {
  statusCode = 200
  headersSent = false
  destroyed = false
  writableEnded = false
  writableFinished = false
  /**
   * Bun closes a connection that sends nothing for 10 s (Nitro's bun preset keeps Bun's default),
   * which would cut a question still waiting for its person: keep-alives come more often here.
   */
  readonly keepAliveMs = 5000
  readonly response: Promise<Response>
  private readonly headers = new Headers()
  private readonly listeners = new Map<string, (() => void)[]>()
  private resolve: (response: Response) => void = () => {}
  private controller?: ReadableStreamDefaultController<Uint8Array>
  private readonly body: ReadableStream<Uint8Array>

  constructor() {
    this.response = new Promise((resolve) => {
      this.resolve = resolve
    })
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller
      },
      cancel: () => {
        if (this.writableEnded) return
        this.destroyed = true
        this.emit('close')
      },
    })
  }

  once(event: 'close' | 'finish' | 'drain', listener: () => void): this {
    // A stream's queue never pushes back here, so 'drain' never comes.
    if (event !== 'drain') this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener])
    return this
  }

  setHeader(name: string, value: string | number | readonly string[]): this {
    this.headers.delete(name)
    for (const item of Array.isArray(value) ? value : [value]) this.headers.append(name, String(item))
    return this
  }

  writeHead(status: number, headers: Record<string, string | number> = {}): this {
    this.statusCode = status
    for (const [name, value] of Object.entries(headers)) this.setHeader(name, value)
    return this
  }

  flushHeaders(): void {
    if (this.headersSent) return
    this.headersSent = true
    // A streamed body has no length: the runtime frames it (chunked).
    this.headers.delete('content-length')
    this.resolve(new Response(NULL_BODY.has(this.statusCode) ? null : this.body, { status: this.statusCode, headers: this.headers }))
  }

  write(chunk: string | Uint8Array): boolean {
    if (this.writableEnded || this.destroyed) return false
    this.flushHeaders()
    this.controller?.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk)
    return true
  }

  end(chunk?: string | Uint8Array): this {
    if (this.writableEnded) return this
    if (!this.headersSent) {
      // Nothing streamed yet: one plain response.
      this.headersSent = true
      this.headers.delete('content-length')
      const body = NULL_BODY.has(this.statusCode) || chunk === undefined ? null : typeof chunk === 'string' ? chunk : new Uint8Array(chunk)
      this.resolve(new Response(body, { status: this.statusCode, headers: this.headers }))
    }
    else {
      if (chunk !== undefined && !this.destroyed) this.controller?.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk)
      if (!this.destroyed) this.controller?.close()
    }
    this.writableEnded = true
    this.writableFinished = true
    this.emit('finish')
    this.emit('close')
    return this
  }

  private emit(event: 'close' | 'finish'): void {
    const listeners = this.listeners.get(event) ?? []
    this.listeners.delete(event)
    for (const listener of listeners) listener()
  }
}
