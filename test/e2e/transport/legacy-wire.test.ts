import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LEGACY, readJsonRpc } from '../../utils/raw'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'

// The legacy session transport speaks Streamable HTTP on Node's own request and response; these
// checks pin its wire behaviour where an SDK client would hide it.

let app: RunningFixture
let session: string

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'wire', version: '1' } } }
const baseHeaders = { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream' }
let nextId = 100

function sessionHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { ...baseHeaders, 'mcp-session-id': session, 'mcp-protocol-version': LEGACY, ...extra }
}

function echo(text: string) {
  return { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name: 'echo', arguments: { text } } }
}

async function post(body: unknown, headers = sessionHeaders()) {
  const response = await fetch(app.url, { method: 'POST', headers, body: JSON.stringify(body) })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

function sseMessages(text: string): Array<{ id?: number, result?: { content?: Array<{ text?: string }> }, error?: { message: string } }> {
  return text.split('\n').filter(line => line.startsWith('data:')).map(line => JSON.parse(line.slice(5)))
}

function errorOf(text: string): string {
  return (JSON.parse(text) as { error: { message: string } }).error.message
}

async function openSession(): Promise<string> {
  const response = await fetch(app.url, { method: 'POST', headers: baseHeaders, body: JSON.stringify(initialize) })
  await response.text()
  const id = response.headers.get('mcp-session-id')!
  await fetch(app.url, { method: 'POST', headers: { ...baseHeaders, 'mcp-session-id': id, 'mcp-protocol-version': LEGACY }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })
  return id
}

beforeAll(async () => {
  app = await startFixture('basic')
  session = await openSession()
})
afterAll(async () => {
  await app?.stop()
})

describe('legacy Streamable HTTP on the Node response', () => {
  it('answers a quick call as one SSE event with a Content-Length and the session id', async () => {
    const { status, headers, text } = await post(echo('hi'))
    expect(status).toBe(200)
    expect(headers.get('content-type')).toBe('text/event-stream')
    expect(headers.get('mcp-session-id')).toBe(session)
    expect(Number(headers.get('content-length'))).toBe(Buffer.byteLength(text))
    expect(text).toMatch(/^event: message\ndata: /)
    expect(sseMessages(text)[0]?.result?.content?.[0]?.text).toBe('hi')
  })

  it('leaves keep-alive to Node, so clients learn the server\'s idle timeout (Keep-Alive: timeout=N)', async () => {
    // The hint tells clients how long the server keeps an idle socket; without it they guess, and
    // a guess past the server's close loses the next POST ("other side closed").
    const headers = await new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
      const req = request(app.url, { method: 'POST', headers: sessionHeaders() }, (res) => {
        res.resume()
        res.on('end', () => resolve(res.headers))
      })
      req.on('error', reject)
      req.end(JSON.stringify(echo('hint')))
    })
    expect(headers['content-type']).toBe('text/event-stream')
    expect(headers.connection).toBe('keep-alive')
    expect(headers['keep-alive']).toMatch(/^timeout=\d+/)
  })

  it('answers a batch of two requests on one stream, then ends it', async () => {
    const [a, b] = [echo('one'), echo('two')]
    const { status, text } = await post([a, b])
    expect(status).toBe(200)
    const messages = sseMessages(text)
    expect(messages.map(message => message.id).sort()).toEqual([a.id, b.id].sort())
    expect(messages.map(message => message.result?.content?.[0]?.text).sort()).toEqual(['one', 'two'])
  })

  it('accepts notifications alone with 202 and no body', async () => {
    const { status, text } = await post({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' })
    expect(status).toBe(202)
    expect(text).toBe('')
  })

  it('refuses each malformed exchange with its status, naming the header or the limit', async () => {
    const accept = await post(echo('x'), sessionHeaders({ accept: 'application/json' }))
    expect(accept.status).toBe(406)
    expect(errorOf(accept.text)).toMatch(/Accept header is "application\/json".*text\/event-stream/)

    const version = await post(echo('x'), sessionHeaders({ 'mcp-protocol-version': '1999-01-01' }))
    expect(version.status).toBe(400)
    expect(errorOf(version.text)).toMatch(/MCP-Protocol-Version header "1999-01-01".*2025-11-25/)

    const again = await post({ ...initialize, id: nextId++ })
    expect(again.status).toBe(400)
    expect(errorOf(again.text)).toMatch(/already initialized/)

    const batch = await post(Array.from({ length: 101 }, () => echo('x')))
    expect(batch.status).toBe(400)
    expect(errorOf(batch.text)).toMatch(/101 messages exceeds 100/)

    const shapeless = await post({ jsonrpc: '2.0', id: nextId++ })
    expect(shapeless.status).toBe(400)

    const served = await post(echo('still here'))
    expect(sseMessages(served.text)[0]?.result?.content?.[0]?.text).toBe('still here')
  })

  it('opens the GET stream at once, refuses a second one with 409, and allows a new one after close', async () => {
    const first = new AbortController()
    const stream = await fetch(app.url, { headers: { ...sessionHeaders(), accept: 'text/event-stream' }, signal: first.signal })
    expect(stream.status).toBe(200)
    expect(stream.headers.get('content-type')).toBe('text/event-stream')

    const second = await fetch(app.url, { headers: { ...sessionHeaders(), accept: 'text/event-stream' } })
    expect(second.status).toBe(409)
    expect(await second.text()).toMatch(/only one is allowed per session/)

    first.abort()
    await stream.body?.cancel().catch(() => {})
    let reopened: Response | undefined
    for (let attempt = 0; attempt < 50 && reopened?.status !== 200; attempt++) {
      await new Promise(resolve => setTimeout(resolve, 20))
      const controller = new AbortController()
      reopened = await fetch(app.url, { headers: { ...sessionHeaders(), accept: 'text/event-stream' }, signal: controller.signal })
      controller.abort()
    }
    expect(reopened?.status).toBe(200)
  })

  it('refuses a GET that does not accept an event stream with 406', async () => {
    const response = await fetch(app.url, { headers: { ...sessionHeaders(), accept: 'application/json' } })
    expect(response.status).toBe(406)
    expect((await readJsonRpc(response)).error?.message).toMatch(/text\/event-stream/)
  })

  it('refuses a streamed body over the limit with 413, discards the rest of it, and keeps serving', async () => {
    const outcome = await new Promise<{ status: number, connection: string | undefined, body: string }>((resolve, reject) => {
      const req = request(app.url, { method: 'POST', headers: { ...sessionHeaders(), 'transfer-encoding': 'chunked' } }, (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => { body += chunk.toString() })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }))
      })
      // The server reads and discards the rest, so the client finishes sending and reads the 413.
      req.on('error', error => reject(error))
      const chunk = 'x'.repeat(256 * 1024)
      const write = (left: number) => {
        if (left === 0) return void req.end()
        if (req.destroyed) return
        if (req.write(chunk)) write(left - 1)
        else req.once('drain', () => write(left - 1))
      }
      write(20)
    })
    expect(outcome.status).toBe(413)
    // Closing while the client still sends would reset the connection, and could lose the 413.
    expect(outcome.connection).not.toBe('close')
    expect(outcome.body).toMatch(/maxBodySize/)
    const served = await post(echo('after 413'))
    expect(sseMessages(served.text)[0]?.result?.content?.[0]?.text).toBe('after 413')
  })

  it('ends the session on DELETE: 200, then 404 for its id', async () => {
    const id = await openSession()
    const deleted = await fetch(app.url, { method: 'DELETE', headers: { 'mcp-session-id': id, 'mcp-protocol-version': LEGACY } })
    expect(deleted.status).toBe(200)
    const after = await fetch(app.url, { method: 'POST', headers: { ...baseHeaders, 'mcp-session-id': id }, body: JSON.stringify(echo('x')) })
    expect(after.status).toBe(404)
    expect((await readJsonRpc(after)).error?.message).toMatch(/Send a new initialize request/)
  })
})
