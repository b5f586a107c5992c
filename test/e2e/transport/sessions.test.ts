import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'

let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('elicitation', { NUXT_MCP_SESSIONS_MAX: '3', NUXT_MCP_SESSIONS_IDLE_TIMEOUT_MS: '600' })
})
afterAll(async () => {
  await app?.stop()
})

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })
const headers = { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream' }

async function openRawSession(): Promise<{ status: number, id: string | null, body: string }> {
  const response = await fetch(app.url, { method: 'POST', headers, body: initialize })
  return { status: response.status, id: response.headers.get('mcp-session-id'), body: await response.text() }
}

async function listWith(id: string): Promise<number> {
  const response = await fetch(app.url, { method: 'POST', headers: { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) })
  await response.body?.cancel()
  return response.status
}

describe('legacy sessions', () => {
  it('gives unguessable session ids', async () => {
    const { id } = await openRawSession()
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('evicts idle sessions (then 404), but never one with a request in flight', async () => {
    const idle = await openRawSession()
    const busy = await connectLegacy(app.url, { answer: () => new Promise(() => {}) })
    const call = busy.callTool({ name: 'ask_wait', arguments: { label: 'busy', timeout: 2500 } })
    await new Promise(resolve => setTimeout(resolve, 1800))
    expect(await listWith(idle.id!)).toBe(404)
    // The busy session outlived the idle timeout: its elicitation times out on its own clock.
    const result = await call
    expect((result.content as { text: string }[])[0]!.text).toMatch(/within 2500 ms/)
    await busy.close()
  })

  it('at the cap closes the least recently used idle session to make room', async () => {
    // Let the idle sessions of the earlier tests be evicted first.
    await new Promise(resolve => setTimeout(resolve, 1800))
    const opened = [await openRawSession(), await openRawSession(), await openRawSession()]
    expect(opened.map(session => session.status)).toEqual([200, 200, 200])
    // Used last: the second and third are more recent than the first.
    expect(await listWith(opened[1]!.id!)).toBe(200)
    expect(await listWith(opened[2]!.id!)).toBe(200)
    const fourth = await openRawSession()
    expect(fourth.status).toBe(200)
    expect(await listWith(opened[0]!.id!)).toBe(404)
    expect(await listWith(opened[1]!.id!)).toBe(200)
    for (const id of [opened[1]!.id!, opened[2]!.id!, fourth.id!]) await fetch(app.url, { method: 'DELETE', headers: { 'mcp-session-id': id } })
  })

  it('refuses with 503 naming the option when every session has a request in flight, and serves again once one closes', async () => {
    const waiting = await Promise.all([0, 1, 2].map(() => connectLegacy(app.url, { answer: () => new Promise(() => {}) })))
    const calls = waiting.map((client, i) => client.callTool({ name: 'ask_wait', arguments: { label: `cap-${i}`, timeout: 3000 } }).catch(() => undefined))
    await new Promise(resolve => setTimeout(resolve, 300))
    const refused = await openRawSession()
    expect(refused.status).toBe(503)
    expect(refused.body).toMatch(/mcp\.sessions\.max/)
    await Promise.all(calls)
    await Promise.all(waiting.map(client => client.close()))
    expect((await openRawSession()).status).toBe(200)
  }, 15_000)
})
