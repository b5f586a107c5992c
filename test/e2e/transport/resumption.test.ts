import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import { startCutProxy } from '../../utils/cut-proxy'
import { connectMcpRemote } from '../../utils/mcp-remote'
import type { CutProxy } from '../../utils/cut-proxy'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'

// A legacy stream that drops mid-call is resumed by the client (GET + Last-Event-ID), here on
// the one instance; shared-state/resume.test.ts does it across instances.

let app: RunningFixture
let proxy: CutProxy

beforeAll(async () => {
  app = await startFixture('elicitation')
  proxy = await startCutProxy(app.url)
})
afterAll(async () => {
  await proxy?.close()
  await app?.stop()
})

const resumptions = () => proxy.heads.filter(head => /^GET /.test(head) && /\r\nlast-event-id: /i.test(head))

/** Opens a raw legacy session declaring `elicitation`; returns the headers its requests carry. */
async function openRawSession(version: string, elicitation: Record<string, unknown>): Promise<Record<string, string>> {
  const headers = { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream' }
  const init = await fetch(app.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: version, capabilities: { elicitation }, clientInfo: { name: 'raw', version: '1' } } }) })
  await init.text()
  const session = { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': version }
  await fetch(app.url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })
  return session
}

/** Reads a raw legacy session's first SSE bytes, to see whether the stream was primed. */
async function firstBytes(version: string): Promise<string> {
  const sessionHeaders = await openRawSession(version, {})
  const controller = new AbortController()
  const call = await fetch(app.url, { method: 'POST', headers: sessionHeaders, signal: controller.signal, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask_later', arguments: { delayMs: 50 } } }) })
  const reader = call.body!.pipeThrough(new TextDecoderStream()).getReader()
  let text = ''
  while (!text.includes('elicitation/create')) text += (await reader.read()).value ?? ''
  controller.abort()
  await fetch(app.url, { method: 'DELETE', headers: sessionHeaders })
  return text
}

/** Reads a streamed body until `marker` appears, then stops reading. */
async function readUntil(response: Response, marker: string): Promise<string> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let text = ''
  while (!text.includes(marker)) {
    const chunk = await reader.read()
    if (chunk.done) throw new Error(`the stream ended before ${marker}: ${text}`)
    text += chunk.value
  }
  await reader.cancel()
  return text
}

describe('legacy streams that drop, on one instance', () => {
  it('primes a stream that stays open for a 2025-11-25 session, with an event id and a retry hint', async () => {
    const text = await firstBytes('2025-11-25')
    expect(text).toMatch(/^event: prime\nid: local\.s1_0\nretry: 1000\ndata: \n\n/)
    expect(text).toMatch(/event: message\nid: local\.s1_1\ndata: \{.*"elicitation\/create"/)
  })

  it('sends no priming event to a 2025-06-18 session, whose clients cannot parse empty data', async () => {
    const text = await firstBytes('2025-06-18')
    expect(text).not.toMatch(/^id:/m)
    expect(text).toMatch(/^event: message\ndata: /)
  })

  it('v1 Client: the connection drops after the question; the answer reaches the tool and the result comes on the resumed stream', async () => {
    const before = resumptions().length
    const client = await connectLegacy(proxy.url, {
      answer: async () => {
        proxy.cut()
        await new Promise(resolve => setTimeout(resolve, 200))
        return { action: 'accept', content: { name: 'Ada' } }
      },
    })
    const result = await client.callTool({ name: 'ask_later', arguments: { delayMs: 0 } })
    expect(textOf(result)).toBe('hello Ada')
    expect(resumptions().length).toBeGreaterThan(before)
    await client.close()
  })

  it('v1 Client: the connection drops before the question; it comes on the resumed stream', async () => {
    const before = resumptions().length
    const received: Record<string, unknown>[] = []
    const client = await connectLegacy(proxy.url, { received, answer: () => ({ action: 'accept', content: { name: 'Grace' } }) })
    const call = client.callTool({ name: 'ask_later', arguments: { delayMs: 2000 } })
    await new Promise(resolve => setTimeout(resolve, 300))
    proxy.cut()
    expect(textOf(await call)).toBe('hello Grace')
    expect(received).toHaveLength(1)
    expect(resumptions().length).toBeGreaterThan(before)
    await client.close()
  })

  it('v2 Client (legacy era): resumes the same way', async () => {
    const before = resumptions().length
    const client = await connectModern(proxy.url, {
      answer: async () => {
        proxy.cut()
        await new Promise(resolve => setTimeout(resolve, 200))
        return { action: 'accept', content: { name: 'Lin' } }
      },
    }, 'legacy')
    const result = await client.callTool({ name: 'ask_later', arguments: { delayMs: 0 } })
    expect(textOf(result)).toBe('hello Lin')
    expect(resumptions().length).toBeGreaterThan(before)
    await client.close()
  })

  it('mcp-remote (as Claude Desktop spawns it): resumes the same way', async () => {
    const before = resumptions().length
    const remote = await connectMcpRemote(proxy.url, async () => {
      proxy.cut()
      await new Promise(resolve => setTimeout(resolve, 200))
      return { action: 'accept', content: { name: 'Mae' } }
    })
    try {
      const result = await remote.client.callTool({ name: 'ask_later', arguments: { delayMs: 0 } })
      expect(textOf(result)).toBe('hello Mae')
      expect(resumptions().length).toBeGreaterThan(before)
    }
    finally {
      await remote.close()
    }
  })

  it('the GET stream: what is raised while it is closed comes first when the client resumes it', async () => {
    const session = await openRawSession('2025-11-25', { url: {} })
    const controller = new AbortController()
    const get = await fetch(app.url, { headers: { ...session, accept: 'text/event-stream' }, signal: controller.signal })
    const reader = get.body!.pipeThrough(new TextDecoderStream()).getReader()
    let head = ''
    while (!head.includes('\n\n')) head += (await reader.read()).value ?? ''
    const priming = /^event: prime\nid: (local\.g\d+_0)\n/.exec(head)?.[1]
    expect(priming).toBeDefined()
    controller.abort()
    // A URL flow, completed while the GET stream is closed: its notification is kept.
    const call = await fetch(app.url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask_url_id', arguments: {} } }) })
    const line = (await readUntil(call, 'elicitation/create')).split('\n').find(item => item.includes('elicitation/create'))!
    const question = JSON.parse(line.slice('data: '.length)) as { id: number, params: { elicitationId: string } }
    const asked = question.params.elicitationId
    await fetch(app.url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', id: question.id, result: { action: 'accept' } }) })
    const done = await (await fetch(new URL(`/complete?id=${asked}`, app.url))).json() as { done: boolean }
    expect(done.done).toBe(true)
    const resumed = await fetch(app.url, { headers: { ...session, 'accept': 'text/event-stream', 'last-event-id': priming! } })
    const text = await readUntil(resumed, 'notifications/elicitation/complete')
    expect(text).toMatch(new RegExp(`id: ${priming!.replace('_0', '_1').replace('.', '\\.')}\ndata: .*"notifications/elicitation/complete".*"${asked}"`))
    await fetch(app.url, { method: 'DELETE', headers: session })
  })

  it('a client back after the grace gets the call\'s end: the wait was cancelled, and its answer kept', async () => {
    const session = await openRawSession('2025-11-25', { form: {} })
    const controller = new AbortController()
    const call = await fetch(app.url, { method: 'POST', headers: session, signal: controller.signal, body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'ask_later', arguments: { delayMs: 0 } } }) })
    const reader = call.body!.pipeThrough(new TextDecoderStream()).getReader()
    let text = ''
    while (!text.includes('elicitation/create')) text += (await reader.read()).value ?? ''
    const lastId = [...text.matchAll(/^id: (\S+)$/gm)].at(-1)![1]!
    controller.abort()
    await new Promise(resolve => setTimeout(resolve, 5600))
    const resumed = await fetch(app.url, { headers: { ...session, 'accept': 'text/event-stream', 'last-event-id': lastId } })
    const rest = await resumed.text()
    const answer = rest.split('\n').find(line => line.startsWith('data: ') && line.includes('"id":9'))
    expect(JSON.parse(answer!.slice(6))).toMatchObject({ id: 9, result: { isError: true, content: [{ text: expect.stringMatching(/cancelled before an answer arrived/) }] } })
    await fetch(app.url, { method: 'DELETE', headers: session })
  }, 20_000)

  it('refuses a Last-Event-ID that is not one of ours, naming it', async () => {
    const client = await connectLegacy(app.url)
    const sessionId = (client.transport as { sessionId?: string }).sessionId!
    const response = await fetch(app.url, { headers: { 'accept': 'text/event-stream', 'mcp-session-id': sessionId, 'last-event-id': 'nonsense' } })
    expect(response.status).toBe(400)
    const body: { error: { message: string } } = await response.json()
    expect(body.error.message).toMatch(/Last-Event-ID "nonsense" is not an event id of this server/)
    await client.close()
  })
})
