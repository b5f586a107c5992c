import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'

// One client must not lock everyone else out of legacy sessions: the cap is per principal (per
// client address when anonymous) before it is global. Behind a proxy, X-Forwarded-For names the
// client, but only when the proxy is trusted, and only the address the nearest trusted proxy added.
let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('elicitation', {
    NUXT_MCP_SESSIONS_MAX: '6',
    NUXT_MCP_SESSIONS_MAX_PER_PRINCIPAL: '3',
    NUXT_MCP_TRUSTED_PROXIES: '127.0.0.1',
  })
})
afterAll(async () => {
  await app?.stop()
})

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })
const headers = { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream' }

async function open(forwardedFor: string): Promise<{ status: number, id: string | null, body: string }> {
  const response = await fetch(app.url, { method: 'POST', headers: { ...headers, 'x-forwarded-for': forwardedFor }, body: initialize })
  return { status: response.status, id: response.headers.get('mcp-session-id'), body: await response.text() }
}

async function use(id: string, forwardedFor: string): Promise<number> {
  const response = await fetch(app.url, { method: 'POST', headers: { ...headers, 'x-forwarded-for': forwardedFor, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) })
  await response.body?.cancel()
  return response.status
}

describe('legacy session caps', () => {
  const attacker = '10.0.0.66'
  let kept: string[] = []

  it('keeps one client to its own cap: its least recently used idle session makes room', async () => {
    const opened = []
    for (let i = 0; i < 10; i++) opened.push(await open(attacker))
    expect(opened.map(session => session.status)).toEqual(Array.from({ length: 10 }, () => 200))
    const ids = opened.map(session => session.id!)
    kept = ids.slice(-3)
    for (const id of ids.slice(0, 7)) expect(await use(id, attacker)).toBe(404)
    for (const id of kept) expect(await use(id, attacker)).toBe(200)
  })

  it('still lets another client in', async () => {
    const other = await open('10.0.0.7')
    expect(other.status).toBe(200)
    expect(await use(other.id!, '10.0.0.7')).toBe(200)
  })

  it('counts the address the nearest trusted proxy added, never the left-most one the client wrote', async () => {
    // The attacker prepends a fake address: the proxy (127.0.0.1) appended the real one.
    const disguised = await open(`10.9.9.9, ${attacker}`)
    expect(disguised.status).toBe(200)
    // It counted as the attacker: the attacker's least recently used session made room.
    expect(await use(kept[0]!, attacker)).toBe(404)
    expect(await use(kept[1]!, attacker)).toBe(200)
  })

  it('holds the per-caller cap when initializes arrive at once: none past it is opened, each refusal names the cap', async () => {
    const burst = '10.0.0.77'
    const opened = await Promise.all(Array.from({ length: 12 }, () => open(burst)))
    for (const refused of opened.filter(result => result.status !== 200)) {
      expect(refused.status).toBe(503)
      expect(refused.body).toMatch(/Too many MCP sessions of one caller \(3\).*NUXT_MCP_SESSIONS_MAX_PER_PRINCIPAL/)
    }
    const ids = opened.flatMap(result => result.id ? [result.id] : [])
    const alive = (await Promise.all(ids.map(id => use(id, burst)))).filter(status => status === 200).length
    expect(alive).toBeGreaterThan(0)
    expect(alive).toBeLessThanOrEqual(3)
  })
})
