import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { JSON_HEADERS, LEGACY, postModern, postRaw } from '../../utils/raw'
import { singleMessage } from '../../utils/raw-legacy'
import { until } from '../../utils/until'

// A client narrows the tool list with X-MCP-Tools (@nuxtjs/mcp-toolkit's header, its syntax
// unchanged, plus group:/tag:), and an endpoint's config with `tools`: lists and calls agree, in
// both eras; guards still decide first. The guards fixture: public_echo (group basics, tag safe),
// beta_tool (group labs, tag safe, behind /flip), admin_report and billing (group admin, guarded),
// the cart layer's cart_add and fill_session; /mcp/narrow serves only its `read` group.
let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('guards')
})
afterAll(async () => {
  await fetch(new URL('/flip?on=0', app.url))
  await app?.stop()
})

type Headers = Record<string, string>
type AnyClient = Awaited<ReturnType<typeof connectLegacy>> | Awaited<ReturnType<typeof connectModern>>

const eras = [
  { era: 'legacy (v1 Client)', connect: (url: URL, headers: Headers) => connectLegacy(url, { requestInit: { headers } }) },
  { era: '2026-07-28 (v2 Client)', connect: (url: URL, headers: Headers) => connectModern(url, { requestInit: { headers } }) },
]

async function names(client: AnyClient): Promise<string[]> {
  return (await client.listTools()).tools.map(tool => tool.name).sort()
}

/** What connecting and listing tools with `headers` is refused with (throws when neither is). */
async function listRefusal(connect: (url: URL, headers: Headers) => Promise<AnyClient>, url: URL, headers: Headers): Promise<string> {
  try {
    const client = await connect(url, headers)
    try {
      throw new Error(`tools/list was answered: ${JSON.stringify(await names(client))}`)
    }
    finally {
      await client.close()
    }
  }
  catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

/** What a client's tools/call of `name` is refused with (throws when it is not refused). */
async function refusal(client: AnyClient, name: string): Promise<string> {
  try {
    const result = await client.callTool({ name, arguments: {} })
    throw new Error(`tools/call ${name} was answered: ${JSON.stringify(result)}`)
  }
  catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

describe.each(eras)('X-MCP-Tools, $era', ({ connect }) => {
  it('lists only the tools named (the toolkit\'s syntax: commas, spaces trimmed), with group and tags in _meta', async () => {
    const client = await connect(app.url, { 'x-user': 'alice', 'X-MCP-Tools': ' public_echo, cart_add ,' })
    try {
      const { tools } = await client.listTools()
      expect(tools.map(tool => tool.name).sort()).toEqual(['cart_add', 'public_echo'])
      expect(tools.find(tool => tool.name === 'public_echo')?._meta).toEqual({ group: 'basics', tags: ['safe'] })
      expect(textOf(await client.callTool({ name: 'public_echo', arguments: { text: 'hi' } }))).toBe('hi')
    }
    finally {
      await client.close()
    }
  })

  it('refuses a tools/call outside the subset, naming the tool and the header and how to include it', async () => {
    const client = await connect(app.url, { 'x-user': 'alice', 'X-MCP-Tools': 'public_echo' })
    try {
      const message = await refusal(client, 'cart_add')
      expect(message).toContain('The tool "cart_add" is outside the tools chosen by the X-MCP-Tools header ("public_echo")')
      expect(message).toContain('add "cart_add" (or its group:<name> or tag:<name>) to the X-MCP-Tools header, or leave the header out')
      // A tool a guard hides stays an unknown tool, subset or not.
      expect(await refusal(client, 'admin_report')).toContain('Unknown tool "admin_report"')
    }
    finally {
      await client.close()
    }
  })

  it('chooses a group or a tag, within what the caller\'s guards let it see', async () => {
    const admin = await connect(app.url, { 'x-user': 'admin', 'X-MCP-Tools': 'group:admin' })
    try {
      // billing is in the group but needs a scope the admin's token lacks: the guard still decides.
      expect(await names(admin)).toEqual(['admin_report'])
    }
    finally {
      await admin.close()
    }
    const safe = await connect(app.url, { 'x-user': 'alice', 'X-MCP-Tools': 'tag:safe' })
    try {
      expect(await names(safe)).toEqual(['public_echo'])
    }
    finally {
      await safe.close()
    }
  })

  it('refuses a name unknown to this caller (HTTP 400, as the toolkit: legacy at initialize, 2026-07-28 at tools/list), a guarded one included', async () => {
    expect(await listRefusal(connect, app.url, { 'x-user': 'alice', 'X-MCP-Tools': 'public_echo, does-not-exist' })).toContain('Unknown MCP tool: does-not-exist. The X-MCP-Tools header')
    expect(await listRefusal(connect, app.url, { 'x-user': 'alice', 'X-MCP-Tools': 'group:admin' })).toContain('Unknown MCP tool: group:admin.')
  })

  it('an endpoint\'s config subset (mcp.endpoints.narrow.tools: group:read) lists and calls only its group', async () => {
    const narrow = new URL('/mcp/narrow', app.url)
    const client = await connect(narrow, {})
    try {
      // lookup and count_words take the group `read` from their folder, tools/read/.
      expect(await names(client)).toEqual(['count_words', 'lookup'])
      expect(await refusal(client, 'purge')).toContain('The tool "purge" is outside the tools chosen by mcp.endpoints.narrow.tools (NUXT_MCP_ENDPOINTS_NARROW_TOOLS): add "purge" to mcp.endpoints.narrow.tools')
    }
    finally {
      await client.close()
    }
    const narrower = await connect(narrow, { 'X-MCP-Tools': 'tag:safe' })
    try {
      expect(await names(narrower)).toEqual(['count_words'])
    }
    finally {
      await narrower.close()
    }
    // The header chooses within the endpoint's subset: what its config leaves out is unknown.
    expect(await listRefusal(connect, narrow, { 'X-MCP-Tools': 'purge' })).toContain('Unknown MCP tool: purge.')
  })
})

describe('X-MCP-Tools on the wire', () => {
  const initialize = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })

  it('answers an unknown name with HTTP 400 naming it (the toolkit\'s test, unchanged)', async () => {
    const response = await postRaw(app.url, { ...JSON_HEADERS, 'X-MCP-Tools': 'does-not-exist' }, initialize)
    expect(response.status).toBe(400)
    expect(response.body).toContain('Unknown MCP tool: does-not-exist')
    expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32602 } })
  })

  it('refuses a value too long or with characters outside printable ASCII, naming the header and the value', async () => {
    const long = await postRaw(app.url, { ...JSON_HEADERS, 'X-MCP-Tools': 'public_echo,'.repeat(400) }, initialize)
    expect(long.status).toBe(400)
    expect(long.body).toMatch(/The X-MCP-Tools header cannot be read: it is 4800 characters long, over the 4096 accepted \(\\"public_echo,public_echo/)
    const accented = await postRaw(app.url, { ...JSON_HEADERS, 'X-MCP-Tools': 'public_\u00E9cho' }, initialize)
    expect(accented.status).toBe(400)
    expect(accented.body).toContain('The X-MCP-Tools header cannot be read: it holds a character outside printable ASCII')
  })

  it('an empty header is an empty list (the toolkit\'s rule): no tool listed, every call refused', async () => {
    const listed = await postModern(app.url, 'tools/list', {}, { headers: { 'X-MCP-Tools': '' } })
    expect(listed.message.result?.tools).toEqual([])
    const called = await postModern(app.url, 'tools/call', { name: 'public_echo', arguments: { text: 'x' } }, { headers: { 'X-MCP-Tools': '' } })
    expect(called.message.error?.message).toContain('The tool "public_echo" is outside the tools chosen by the X-MCP-Tools header ("")')
  })

  it('2026-07-28: a narrowed list says ttlMs 0 and cacheScope private, so no cache serves one subset\'s list to another', async () => {
    const echo = await postModern(app.url, 'tools/list', {}, { headers: { 'X-MCP-Tools': 'public_echo' } })
    const cart = await postModern(app.url, 'tools/list', {}, { headers: { 'X-MCP-Tools': 'cart_add' } })
    const narrow = await postModern(new URL('/mcp/narrow', app.url), 'tools/list', {})
    for (const answer of [echo, cart, narrow]) expect(answer.message.result).toMatchObject({ ttlMs: 0, cacheScope: 'private' })
    const toolsOf = (answer: typeof echo) => (answer.message.result?.tools as { name: string }[]).map(tool => tool.name)
    expect(toolsOf(echo)).toEqual(['public_echo'])
    expect(toolsOf(cart)).toEqual(['cart_add'])
  })

  it('a legacy session reads the subset of each request: the header of the request, not of initialize', async () => {
    const init = await fetch(app.url, { method: 'POST', headers: { ...JSON_HEADERS, 'X-MCP-Tools': 'public_echo' }, body: initialize })
    expect(init.status).toBe(200)
    const session = init.headers.get('mcp-session-id')
    await init.body?.cancel()
    if (!session) throw new Error('initialize returned no Mcp-Session-Id')
    const post = async (body: Record<string, unknown>, headers: Headers) => fetch(app.url, { method: 'POST', headers: { ...JSON_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': LEGACY, ...headers }, body: JSON.stringify(body) })
    // Only initialize, tools/list and tools/call read the header: a notification (or a client's
    // answer to a question) is never refused for it, even naming a tool nobody serves.
    const initialized = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'X-MCP-Tools': 'no_such_tool' })
    expect(initialized.status).toBe(202)
    const listed = async (id: number, headers: Headers) => {
      const message = await singleMessage(await post({ jsonrpc: '2.0', id, method: 'tools/list', params: {} }, headers))
      const result = message.result as { tools: { name: string }[] }
      // 2025-11-25 has no list caching fields: none goes out.
      expect(Object.keys(result)).toEqual(['tools'])
      return result.tools.map(tool => tool.name).sort()
    }
    expect(await listed(2, { 'X-MCP-Tools': 'public_echo' })).toEqual(['public_echo'])
    expect(await listed(3, { 'X-MCP-Tools': 'cart_add' })).toEqual(['cart_add'])
    expect(await listed(4, {})).toEqual(['cart_add', 'fill_session', 'public_echo'])
    const closed = await fetch(app.url, { method: 'DELETE', headers: { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY } })
    await closed.body?.cancel()
  })
})

describe('a view\'s own tool follows the view', () => {
  it('keeps count-visit (visibility [\'app\'], the greeting view) in a subset that keeps greet, which shows that view', async () => {
    const views = await startFixture('views')
    try {
      for (const connect of [connectLegacy, connectModern]) {
        const client = await connect(views.url, { requestInit: { headers: { 'X-MCP-Tools': 'greet' } } })
        try {
          expect(await names(client)).toEqual(['count-visit', 'greet'])
          expect(textOf(await client.callTool({ name: 'count-visit', arguments: { who: 'ana' } }))).toMatch(/^Visit \d+ by ana$/)
        }
        finally {
          await client.close()
        }
      }
    }
    finally {
      await views.stop()
    }
  })
})

describe('list changes with a subset', () => {
  it('legacy (v1 Client): a session with X-MCP-Tools hears tools/list_changed, and its next list is its subset of the new list', async () => {
    const client = await connectLegacy(app.url, { requestInit: { headers: { 'x-user': 'alice', 'X-MCP-Tools': 'tag:safe' } } })
    let changes = 0
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => { changes += 1 })
    try {
      expect(await names(client)).toEqual(['public_echo'])
      // The v1 Client opens its GET stream after initialize, without waiting: give it a moment.
      await new Promise(resolve => setTimeout(resolve, 300))
      await fetch(new URL('/flip?on=1', app.url))
      await until(() => changes === 1, 'tools/list_changed')
      expect(await names(client)).toEqual(['beta_tool', 'public_echo'])
      await fetch(new URL('/flip?on=0', app.url))
      await until(() => changes === 2, 'second tools/list_changed')
      expect(await names(client)).toEqual(['public_echo'])
    }
    finally {
      await client.close()
    }
  })

  it('2026-07-28 (v2 Client): the change arrives on subscriptions/listen; the next list is narrowed the same way', async () => {
    const client = await connectModern(app.url, { requestInit: { headers: { 'x-user': 'alice', 'X-MCP-Tools': 'tag:safe' } } })
    let changes = 0
    client.setNotificationHandler('notifications/tools/list_changed', () => { changes += 1 })
    const subscription = await client.listen({ toolsListChanged: true })
    try {
      await fetch(new URL('/flip?on=1', app.url))
      await until(() => changes === 1, 'tools/list_changed on subscriptions/listen')
      expect(await names(client)).toEqual(['beta_tool', 'public_echo'])
    }
    finally {
      await fetch(new URL('/flip?on=0', app.url))
      await subscription.close()
      await client.close()
    }
  })
})
