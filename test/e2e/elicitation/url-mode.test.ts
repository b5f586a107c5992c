import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'

let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('elicitation')
})
afterAll(async () => {
  await app?.stop()
})


describe('URL mode', () => {
  it('legacy: completeMcpUrlElicitation() notifies the client once, by id', async () => {
    const client = await connectLegacy(app.url, { answer: () => ({ action: 'accept' }) })
    const completed: string[] = []
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
      completed.push(notification.params.elicitationId)
    })
    const received: Record<string, unknown>[] = []
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      received.push(request.params)
      return { action: 'accept' }
    })
    const id = textOf(await client.callTool({ name: 'ask_url_id', arguments: {} }))
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    // The URL function got the same id the client sees as elicitationId.
    expect(received[0]).toMatchObject({ mode: 'url', elicitationId: id, url: `http://localhost/finish?flow=${id}` })
    const first = await (await fetch(new URL(`/complete?id=${id}`, app.origin))).json()
    expect(first).toEqual({ done: true })
    const again = await (await fetch(new URL(`/complete?id=${id}`, app.origin))).json()
    expect(again).toEqual({ done: false })
    const deadline = Date.now() + 3000
    while (completed.length === 0 && Date.now() < deadline) await new Promise(resolve => setTimeout(resolve, 20))
    expect(completed).toEqual([id])
    await client.close()
  })

  it('legacy: a declined URL flow cannot be completed (nothing is kept for it)', async () => {
    const client = await connectLegacy(app.url, { answer: () => ({ action: 'decline' }) })
    const id = textOf(await client.callTool({ name: 'ask_url_id', arguments: {} }))
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    expect(await (await fetch(new URL(`/complete?id=${id}`, app.origin))).json()).toEqual({ done: false })
    await client.close()
  })

  it('legacy: a URL flow of a session that ended cannot be completed', async () => {
    const client = await connectLegacy(app.url, { answer: () => ({ action: 'accept' }) })
    const id = textOf(await client.callTool({ name: 'ask_url_id', arguments: {} }))
    const transport = client.transport
    if (!(transport instanceof StreamableHTTPClientTransport)) throw new Error('expected the Streamable HTTP transport')
    // DELETE: the session ends on the server.
    await transport.terminateSession()
    await client.close()
    expect(await (await fetch(new URL(`/complete?id=${id}`, app.origin))).json()).toEqual({ done: false })
  })

  it('legacy: requireUrl() raises -32042 with the URL elicitation', async () => {
    const client = await connectLegacy(app.url, { answer: () => ({ action: 'accept' }) })
    const error = await client.callTool({ name: 'ask_require_url', arguments: {} }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(McpError)
    expect((error as McpError).code).toBe(-32042)
    expect((error as McpError).data).toMatchObject({ elicitations: [{ mode: 'url', message: 'Authorize first', url: 'https://example.com/authorize' }] })
    await client.close()
  })

  it('modern: requireUrl() becomes an input_required URL request, judged on the retry', async () => {
    const received: Record<string, unknown>[] = []
    const client = await connectModern(app.url, { answer: () => ({ action: 'accept' }), received })
    expect(textOf(await client.callTool({ name: 'ask_require_url', arguments: {} }))).toBe('authorized: accept')
    expect(received[0]).toEqual({ mode: 'url', message: 'Authorize first', url: 'https://example.com/authorize' })
    await client.close()
  })

  it('modern: a URL built from the flow id stays the same across rounds', async () => {
    const received: Record<string, unknown>[] = []
    const client = await connectModern(app.url, { answer: () => ({ action: 'accept' }), received })
    const id = textOf(await client.callTool({ name: 'ask_url_id', arguments: {} }))
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    expect(received).toEqual([{ mode: 'url', message: 'Finish on the page', url: `http://localhost/finish?flow=${id}` }])
    await client.close()
  })

  it('legacy: the signal option aborts the wait with cancelled', async () => {
    const client = await connectLegacy(app.url, { answer: () => new Promise(() => {}) })
    expect(textOf(await client.callTool({ name: 'ask_abort', arguments: {} }))).toBe('error:cancelled')
    await client.close()
  })
})
