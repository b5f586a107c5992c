import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { postModern } from '../../utils/raw'

// The `mcp:request` hook: runs once per request of the endpoint, in both eras, and may refuse.
// (The guards fixture is built by the global setup.)
let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('guards')
})
afterAll(async () => {
  await app?.stop()
})

async function seen(): Promise<string[]> {
  return (await (await fetch(new URL('/seen', app.url))).json() as { seen: string[] }).seen
}

describe('mcp:request middleware', () => {
  it('runs once per HTTP request, legacy: with the caller, the era and the JSON-RPC methods', async () => {
    const before = (await seen()).length
    const client = await connectLegacy(app.url, { requestInit: { headers: { 'x-user': 'mia' } } })
    expect(textOf(await client.callTool({ name: 'public_echo', arguments: { text: 'hi' } }))).toBe('hi')
    await client.close()
    const lines = (await seen()).slice(before)
    // initialize, notifications/initialized, the GET stream (maybe), tools/call; each exactly once.
    expect(lines.filter(line => line === 'mia legacy POST initialize')).toHaveLength(1)
    expect(lines.filter(line => line === 'mia legacy POST notifications/initialized')).toHaveLength(1)
    expect(lines.filter(line => line === 'mia legacy POST tools/call')).toHaveLength(1)
    expect(lines.every(line => line.startsWith('mia legacy '))).toBe(true)
  })

  it('runs once per HTTP request, 2026-07-28', async () => {
    const before = (await seen()).length
    const client = await connectModern(app.url, { requestInit: { headers: { 'x-user': 'noor' } } })
    expect(textOf(await client.callTool({ name: 'public_echo', arguments: { text: 'hi' } }))).toBe('hi')
    await client.close()
    const lines = (await seen()).slice(before)
    expect(lines.filter(line => line === 'noor modern POST tools/call')).toHaveLength(1)
    expect(lines.every(line => line.startsWith('noor modern POST '))).toBe(true)
  })

  it('refuses with the status, the message and the headers the hook gave, answering the request\'s id', async () => {
    const { status, headers, message } = await postModern(app.url, 'tools/call', { name: 'public_echo', arguments: { text: 'x' } }, { headers: { 'x-user': 'busy', 'x-limit': 'exceeded' } })
    expect(status).toBe(429)
    expect(headers.get('retry-after')).toBe('60')
    expect(message.error?.message).toBe('Too many requests from busy: wait a minute.')
    const raw = await fetch(app.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'x-limit': 'exceeded' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 41, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    })
    expect(raw.status).toBe(429)
    expect(await raw.json()).toEqual({ jsonrpc: '2.0', id: 41, error: { code: -32000, message: 'Too many requests from this caller: wait a minute.' } })
    await expect(connectLegacy(app.url, { requestInit: { headers: { 'x-user': 'busy', 'x-limit': 'exceeded' } } })).rejects.toThrow(/429|Too many requests from busy/)
    // The server goes on serving others.
    const client = await connectLegacy(app.url, { requestInit: { headers: { 'x-user': 'calm' } } })
    expect(textOf(await client.callTool({ name: 'public_echo', arguments: { text: 'still here' } }))).toBe('still here')
    await client.close()
  })
})

describe('mcp:request hooks registered while the server runs', () => {
  let basic: RunningFixture
  beforeAll(async () => {
    basic = await startFixture('basic')
  })
  afterAll(async () => {
    await basic?.stop()
  })

  const toggle = async (on: boolean) => expect((await fetch(new URL(`/late-hook?on=${on ? 1 : 0}`, basic.url), { method: 'POST' })).status).toBe(200)
  const call = () => postModern(basic.url, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { headers: { 'x-late-hook': 'refuse' } })

  it('are run from the next request on, and no longer once removed', async () => {
    // The app starts with no mcp:request hook: the request is served.
    expect((await call()).status).toBe(200)
    await toggle(true)
    const refused = await call()
    expect(refused.status).toBe(403)
    expect(refused.message.error?.message).toBe('Refused by the hook registered at run time.')
    await toggle(false)
    expect((await call()).status).toBe(200)
  })
})
