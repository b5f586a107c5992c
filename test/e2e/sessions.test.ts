import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy } from '../utils/clients'
import { startFixture } from '../utils/fixture'
import type { RunningFixture } from '../utils/fixture'

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

  it('refuses sessions beyond the cap with 503 naming the option, and serves again once one closes', async () => {
    // Let the idle sessions of the earlier tests be evicted first.
    await new Promise(resolve => setTimeout(resolve, 1800))
    const opened = [await openRawSession(), await openRawSession(), await openRawSession()]
    expect(opened.map(session => session.status)).toEqual([200, 200, 200])
    const refused = await openRawSession()
    expect(refused.status).toBe(503)
    expect(refused.body).toMatch(/mcp\.sessions\.max/)
    const closed = await fetch(app.url, { method: 'DELETE', headers: { 'mcp-session-id': opened[0]!.id! } })
    expect(closed.status).toBe(200)
    expect((await openRawSession()).status).toBe(200)
  })
})
