import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import type { ConnectOptions } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { postModern } from '../../utils/raw'
import { until } from '../../utils/until'

// Several endpoints: the guards fixture's server/mcp/ops/ is served at /mcp/ops with its own
// definitions, name, instructions, authentication rule and guards, beside the default /mcp.
let app: RunningFixture
let ops: URL

beforeAll(async () => {
  app = await startFixture('guards')
  ops = new URL('/mcp/ops', app.url)
})
afterAll(async () => {
  await fetch(new URL('/flip?on=0', app.url))
  await app?.stop()
})

const oncall = { 'x-user': 'oncall' }
const oncallWriter = { 'x-user': 'oncall', 'x-scopes': 'ops:write' }

const eras = [
  { era: 'legacy (v1 Client)', connect: (url: URL, headers: Record<string, string>, options: ConnectOptions = {}) => connectLegacy(url, { ...options, requestInit: { headers } }) },
  { era: '2026-07-28 (v2 Client)', connect: (url: URL, headers: Record<string, string>, options: ConnectOptions = {}) => connectModern(url, { ...options, requestInit: { headers } }) },
]

describe.each(eras)('a second endpoint, $era', ({ connect }) => {
  it('lists only its own definitions, with its own guards, and the first endpoint none of them', async () => {
    const client = await connect(ops, oncall)
    expect((await client.listTools()).tools.map(tool => tool.name).sort()).toEqual(['ops_note', 'rotate_keys'])
    expect((await client.listResources()).resources.map(resource => resource.uri)).toEqual(['ops://status'])
    expect(await client.callTool({ name: 'public_echo', arguments: { text: 'x' } }).then(() => 'served', (error: unknown) => String(error))).toMatch(/Unknown tool "public_echo"/)
    await client.close()
    const writer = await connect(ops, oncallWriter)
    expect((await writer.listTools()).tools.map(tool => tool.name).sort()).toEqual(['ops_note', 'rotate_keys', 'wipe_cache'])
    expect(textOf(await writer.callTool({ name: 'wipe_cache', arguments: {} }))).toBe('cache wiped')
    await writer.close()
    const first = await connect(app.url, oncall)
    const names = (await first.listTools()).tools.map(tool => tool.name)
    expect(names).toContain('public_echo')
    expect(names).not.toContain('rotate_keys')
    expect(await first.callTool({ name: 'rotate_keys', arguments: {} }).then(() => 'served', (error: unknown) => String(error))).toMatch(/Unknown tool "rotate_keys"/)
    await first.close()
  })

  it('tells its own name and instructions', async () => {
    const client = await connect(ops, oncall)
    expect(client.getServerVersion()?.name).toBe('ops-console')
    expect(client.getInstructions()).toBe('Operations tools for the on-call engineer.')
    await client.close()
    const first = await connect(app.url, oncall)
    expect(first.getServerVersion()?.name).toBe('guards-fixture')
    expect(first.getInstructions()).toBeUndefined()
    await first.close()
  })

  it('asks the person from its own tool, the same form() in both eras', async () => {
    const received: Record<string, unknown>[] = []
    const client = await connect(ops, oncall, { answer: () => ({ action: 'accept', content: { key: 'signing' } }), received })
    expect(textOf(await client.callTool({ name: 'rotate_keys', arguments: {} }))).toBe('rotated the signing key')
    expect(received[0]).toMatchObject({ message: 'Which key should be rotated?' })
    await client.close()
  })
})

describe('a second endpoint over HTTP', () => {
  it('applies its own authentication rule: 401 for a caller the first endpoint serves', async () => {
    const refused = await postModern(ops, 'tools/list', {}, { headers: { 'x-user': 'alice' } })
    expect(refused.status).toBe(401)
    expect(refused.message.error?.message).toContain('The ops endpoint is for the on-call engineer: send x-user: oncall.')
    expect((await postModern(app.url, 'tools/list', {}, { headers: { 'x-user': 'alice' } })).status).toBe(200)
  })

  it('serves its own OAuth metadata URL (404 while OAuth is off there), and a folder without definition folders is no endpoint', async () => {
    const metadata = await fetch(new URL('/.well-known/oauth-protected-resource/mcp/ops', app.url))
    expect(metadata.status).toBe(404)
    expect(await metadata.json()).toEqual({ error: 'OAuth is not configured on this MCP endpoint (mcp.auth.issuers is empty).' })
    const notAnEndpoint = await fetch(new URL('/mcp/shared', app.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    // The app's own page answers it (the fixture renders app.vue on every path), not MCP.
    expect(notAnEndpoint.headers.get('content-type')).toContain('text/html')
  })

  it('keeps per-session values per session on its own endpoint', async () => {
    const one = await connectLegacy(ops, { requestInit: { headers: oncall } })
    const two = await connectLegacy(ops, { requestInit: { headers: oncall } })
    expect(textOf(await one.callTool({ name: 'ops_note', arguments: { note: 'first' } }))).toBe('previous note: (none)')
    expect(textOf(await one.callTool({ name: 'ops_note', arguments: { note: 'second' } }))).toBe('previous note: first')
    expect(textOf(await two.callTool({ name: 'ops_note', arguments: { note: 'other' } }))).toBe('previous note: (none)')
    await one.close()
    await two.close()
  })

  it('notifyMcpListChanged({ endpoint }) reaches that endpoint\'s sessions only; without it, every endpoint\'s', async () => {
    const counts = { ops: 0, first: 0 }
    const opsClient = await connectLegacy(ops, { requestInit: { headers: oncall } })
    const firstClient = await connectLegacy(app.url, { requestInit: { headers: oncall } })
    opsClient.setNotificationHandler(ToolListChangedNotificationSchema, () => { counts.ops += 1 })
    firstClient.setNotificationHandler(ToolListChangedNotificationSchema, () => { counts.first += 1 })
    expect(opsClient.getServerCapabilities()?.tools).toEqual({ listChanged: true })
    // The v1 Client opens its GET stream after initialize, without waiting: give it a moment.
    await new Promise(resolve => setTimeout(resolve, 300))
    await fetch(new URL('/flip?on=0&endpoint=/mcp/ops', app.url))
    await until(() => counts.ops === 1, 'list_changed on /mcp/ops')
    await fetch(new URL('/flip?on=0', app.url))
    await until(() => counts.ops === 2 && counts.first === 1, 'list_changed on both endpoints')
    // The first endpoint heard only the change sent to every endpoint.
    expect(counts).toEqual({ ops: 2, first: 1 })
    await opsClient.close()
    await firstClient.close()
  })
})
