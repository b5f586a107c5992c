import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { openSseStream } from '../../../../src/runtime/server/transport/streams/sse'
import type { SseStream } from '../../../../src/runtime/server/transport/streams/sse'

let server: Server | undefined

afterEach(async () => {
  server?.closeAllConnections()
  await new Promise(resolve => server?.close(resolve))
  server = undefined
})

/** Serves one request with `serve`; resolves with the URL. */
async function serveWith(serve: (res: ServerResponse, req: IncomingMessage) => void): Promise<string> {
  server = createServer((req, res) => serve(res, req))
  await new Promise<void>(resolve => server!.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
}

const answer = { jsonrpc: '2.0' as const, id: 1, result: { ok: true } }

describe('openSseStream', () => {
  it('sends an answer that is ready at once in one response with a Content-Length', async () => {
    const url = await serveWith(res => openSseStream(res, { headers: { 'mcp-session-id': 's1' } }).end(answer))
    const response = await fetch(url)
    const text = await response.text()
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    expect(response.headers.get('mcp-session-id')).toBe('s1')
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(text))
    expect(text).toBe(`event: message\ndata: ${JSON.stringify(answer)}\n\n`)
  })

  it('flushes the headers of a slow answer on the next turn, then keeps the stream alive until it ends', async () => {
    let stream: SseStream | undefined
    const url = await serveWith((res) => {
      stream = openSseStream(res, { keepAliveMs: 30 })
    })
    // fetch resolves on the headers: it would hang here if they waited for the first event.
    const response = await fetch(url)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-length')).toBeNull()
    // Read as it comes until two keepalives have arrived (on a loaded machine a fixed wait may
    // see one timer tick, not two), then the progress and the answer.
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
    let text = ''
    while ((text.match(/: keepalive\n\n/g)?.length ?? 0) < 2) {
      const read = await reader.read()
      if (read.done) throw new Error(`the stream ended before two keepalives: ${JSON.stringify(text)}`)
      text += read.value
    }
    stream!.write({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } })
    stream!.end(answer)
    expect(stream!.closed).toBe(true)
    for (let read = await reader.read(); !read.done; read = await reader.read()) text += read.value
    expect(text).toContain('notifications/progress')
    expect(text.endsWith(`data: ${JSON.stringify(answer)}\n\n`)).toBe(true)
  })

  it('reports a client that went away: writes fail, onClose runs once', async () => {
    let closes = 0
    let stream: SseStream | undefined
    let markGone = () => {}
    const gone = new Promise<void>((resolve) => { markGone = resolve })
    const url = await serveWith((res) => {
      stream = openSseStream(res, { flushNow: true, onClose: () => { closes++; markGone() } })
    })
    const controller = new AbortController()
    const response = await fetch(url, { signal: controller.signal })
    expect(response.status).toBe(200)
    controller.abort()
    await gone
    expect(stream!.write(answer)).toBe(false)
    stream!.end(answer)
    expect(closes).toBe(1)
  })
})
