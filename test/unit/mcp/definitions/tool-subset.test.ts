import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMcpRegistry } from '../../../../src/runtime/server/mcp/definitions/registry'
import type { DefinitionEntry, ErasedTool } from '../../../../src/runtime/server/mcp/definitions/registry'
import { chooseTools, endpointToolSubset, MAX_TOOLS_HEADER_LENGTH, outsideSubset, parseToolSubset, requestToolSubset } from '../../../../src/runtime/server/mcp/definitions/tool-subset'
import type { McpRequestScope } from '../../../../src/runtime/server/common/context'
import type { H3Event } from 'h3'

// X-MCP-Tools as @nuxtjs/mcp-toolkit 0.19 reads it (comma-separated names, trimmed, empty entries
// dropped, an empty value an empty list, unknown names refused), and our group:/tag:/* entries.

function tool(fallbackName: string, definition: Partial<ErasedTool> = {}, entry: Partial<DefinitionEntry<ErasedTool>> = {}): DefinitionEntry<ErasedTool> {
  return { file: `server/mcp/tools/${fallbackName}.ts`, fallbackName, definition: { handler: () => fallbackName, ...definition }, ...entry }
}

const registry = createMcpRegistry({
  tools: [
    tool('search', { tags: ['read-only'] }),
    tool('read-page', {}, { folder: 'docs' }),
    tool('edit-page', { tags: ['writes'] }, { folder: 'docs' }),
    tool('deploy', { group: 'ops', tags: ['writes'] }, { folder: 'docs' }),
    tool('secret', { group: 'ops', enabled: ({ principal }) => principal === 'admin' }),
    tool('answer-later', {}, { companion: true }),
  ],
  resources: [],
  prompts: [],
})
const tools = [...registry.tools.values()]

function entries(value: string) {
  const parsed = parseToolSubset(value)
  if (!parsed.ok) throw new Error(parsed.problem)
  return parsed.entries
}

function scopeOf(principal?: string): McpRequestScope {
  // A guard reads the event only when it asks for it; these guards read the principal.
  const event = {} as H3Event
  return { event, era: 'modern', route: '/mcp', signal: new AbortController().signal, ...(principal !== undefined && { principal }) }
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('parseToolSubset: the toolkit\'s syntax', () => {
  it('splits on commas, trims each entry, drops empty ones', () => {
    expect(entries(' search ,read-page,, ').map(entry => entry.written)).toEqual(['search', 'read-page'])
  })

  it('reads an empty or blank value as an empty list (no tool), not as "no header"', () => {
    expect(entries('')).toEqual([])
    expect(entries('  ,  ')).toEqual([])
  })

  it('reads group:, tag: and * as our own entries; anything else is a name', () => {
    expect(entries('group:docs, tag: read-only ,*,x')).toEqual([
      { kind: 'group', value: 'docs', written: 'group:docs' },
      { kind: 'tag', value: 'read-only', written: 'tag: read-only' },
      { kind: 'all', written: '*' },
      { kind: 'name', value: 'x', written: 'x' },
    ])
  })

  it('reads an array (nuxt.config) as the same list', () => {
    expect(parseToolSubset(['search', 'group:docs'])).toEqual(parseToolSubset('search,group:docs'))
  })

  it('refuses a value over the length limit, saying its length and the fix', () => {
    const parsed = parseToolSubset('a,'.repeat(MAX_TOOLS_HEADER_LENGTH))
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.problem).toMatch(/characters long, over the 4096 accepted .*group \(group:<name>\)/)
  })

  it('refuses characters outside printable ASCII, showing the value', () => {
    const parsed = parseToolSubset('search,\u0001deploy')
    expect(parsed).toEqual({ ok: false, problem: expect.stringContaining('outside printable ASCII ("search,\\u0001deploy")') })
    expect(parseToolSubset('récit').ok).toBe(false)
  })
})

describe('chooseTools', () => {
  it('chooses names, groups (explicit or the folder) and tags, and always the companions', () => {
    expect([...chooseTools(tools, entries('search')).names].sort()).toEqual(['answer-later', 'search'])
    expect([...chooseTools(tools, entries('group:docs')).names].sort()).toEqual(['answer-later', 'edit-page', 'read-page'])
    expect([...chooseTools(tools, entries('tag:writes')).names].sort()).toEqual(['answer-later', 'deploy', 'edit-page'])
    expect([...chooseTools(tools, entries('')).names]).toEqual(['answer-later'])
    expect(chooseTools(tools, entries('*')).names.size).toBe(tools.length)
  })

  it('says each entry that chose nothing', () => {
    expect(chooseTools(tools, entries('search, nope, group:none, tag:none')).unknown).toEqual(['nope', 'group:none', 'tag:none'])
  })

  it('keeps a tool only a view may call with the tools that show its view (the view calls it with the same header)', () => {
    const withViews = [...createMcpRegistry({
      tools: [
        tool('show-weather', { view: 'weather' }),
        tool('refresh-weather', { view: { name: 'weather', visibility: ['app'] } }),
        tool('refresh-other', { view: { name: 'other', visibility: ['app'] } }),
        tool('both', { view: { name: 'weather', visibility: ['model', 'app'] } }),
        tool('search'),
      ],
      resources: [],
      prompts: [],
      views: [{ name: 'weather', file: 'app/mcp/weather.vue', ui: {}, html: '<p>weather</p>' }, { name: 'other', file: 'app/mcp/other.vue', ui: {}, html: '<p>other</p>' }],
    }).tools.values()]
    expect([...chooseTools(withViews, entries('show-weather')).names].sort()).toEqual(['refresh-weather', 'show-weather'])
    // A tool the model may call too is chosen like any other.
    expect([...chooseTools(withViews, entries('search')).names]).toEqual(['search'])
  })

  it('reads an entry as a tool\'s name first', () => {
    const odd = [...createMcpRegistry({ tools: [tool('group:docs'), tool('x', { group: 'docs' })], resources: [], prompts: [] }).tools.values()]
    expect([...chooseTools(odd, entries('group:docs')).names]).toEqual(['group:docs'])
  })
})

describe('requestToolSubset: the header against what this caller may see', () => {
  it('is undefined without the header', async () => {
    expect(await requestToolSubset(registry, undefined, undefined, scopeOf())).toBeUndefined()
  })

  it('names what the header chose and where it came from', async () => {
    const asked = await requestToolSubset(registry, undefined, 'search,tag:writes', scopeOf())
    expect(asked).toEqual({ ok: true, subset: { names: new Set(['answer-later', 'search', 'deploy', 'edit-page']), source: 'the X-MCP-Tools header ("search,tag:writes")' } })
  })

  it('refuses an unknown name as the toolkit does (Unknown MCP tool…), naming the header and the fix', async () => {
    const asked = await requestToolSubset(registry, undefined, 'search, does-not-exist', scopeOf())
    expect(asked).toEqual({ ok: false, problem: expect.stringMatching(/^Unknown MCP tool: does-not-exist\. The X-MCP-Tools header \("search, does-not-exist"\) names it.*leave the header out/) })
    const two = await requestToolSubset(registry, undefined, 'a,b', scopeOf())
    expect(two).toEqual({ ok: false, problem: expect.stringMatching(/^Unknown MCP tools: a, b\./) })
  })

  it('counts a tool a guard hides from this caller as unknown: the refusal tells no more than the list', async () => {
    expect(await requestToolSubset(registry, undefined, 'secret', scopeOf('admin'))).toMatchObject({ ok: true })
    expect(await requestToolSubset(registry, undefined, 'secret', scopeOf('ana'))).toEqual({ ok: false, problem: expect.stringContaining('Unknown MCP tool: secret.') })
    // A group is known while one of its tools is visible.
    expect(await requestToolSubset(registry, undefined, 'group:ops', scopeOf('ana'))).toEqual({ ok: true, subset: expect.objectContaining({ names: new Set(['answer-later', 'deploy']) }) })
  })

  it('runs the guards of the tools the header could choose only', async () => {
    let asked = 0
    const counted = createMcpRegistry({
      tools: [tool('search'), tool('guarded', { enabled: () => { asked += 1; return true } })],
      resources: [],
      prompts: [],
    })
    await requestToolSubset(counted, undefined, 'search', scopeOf())
    expect(asked).toBe(0)
    await requestToolSubset(counted, undefined, 'search,guarded', scopeOf())
    expect(asked).toBe(1)
  })

  it('chooses only within the endpoint\'s own subset: a tool it leaves out is unknown', async () => {
    const endpoint = endpointToolSubset(registry, ['group:docs'], 'mcp.tools')
    expect(await requestToolSubset(registry, endpoint, 'read-page', scopeOf())).toMatchObject({ ok: true })
    expect(await requestToolSubset(registry, endpoint, 'search', scopeOf())).toEqual({ ok: false, problem: expect.stringContaining('Unknown MCP tool: search.') })
  })

  it('reads two X-MCP-Tools headers as one list', async () => {
    expect(await requestToolSubset(registry, undefined, ['search', 'read-page'], scopeOf())).toMatchObject({ ok: true, subset: { names: new Set(['answer-later', 'search', 'read-page']) } })
  })
})

describe('endpointToolSubset: the endpoint\'s own config', () => {
  it('is every tool for \'*\' or unset', () => {
    expect(endpointToolSubset(registry, '*', 'mcp.tools')).toBeUndefined()
    expect(endpointToolSubset(registry, undefined, 'mcp.tools')).toBeUndefined()
  })

  it('says entries that name nothing in the log, naming the option, and serves the rest', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const subset = endpointToolSubset(registry, 'search, serch', 'mcp.tools (NUXT_MCP_TOOLS)')
    expect(subset).toEqual({ names: new Set(['answer-later', 'search']), source: 'mcp.tools (NUXT_MCP_TOOLS)' })
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('mcp.tools (NUXT_MCP_TOOLS) names no tool, group or tag called "serch": left out.'))
  })

  it('serves every tool while the value cannot be read, and says so', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(endpointToolSubset(registry, 'a\u0000', 'mcp.tools')).toBeUndefined()
    expect(error).toHaveBeenCalledWith(expect.stringContaining('mcp.tools cannot be read'))
  })
})

describe('outsideSubset: the tools/call refusal', () => {
  it('names the tool, the header and how to include it', () => {
    expect(outsideSubset('deploy', { names: new Set(), source: 'the X-MCP-Tools header ("search")' }))
      .toBe('The tool "deploy" is outside the tools chosen by the X-MCP-Tools header ("search"): add "deploy" (or its group:<name> or tag:<name>) to the X-MCP-Tools header, or leave the header out to call it.')
  })

  it('names the option for an endpoint\'s subset', () => {
    expect(outsideSubset('deploy', { names: new Set(), source: 'mcp.tools (NUXT_MCP_TOOLS)' })).toBe('The tool "deploy" is outside the tools chosen by mcp.tools (NUXT_MCP_TOOLS): add "deploy" to mcp.tools (NUXT_MCP_TOOLS) to call it.')
  })
})

describe('group and tags in the registry', () => {
  it('lists them in _meta as @nuxtjs/mcp-toolkit does, the folder as the group unless one is set', () => {
    const listed = Object.fromEntries(registry.lists.tools.map(item => [item.name, item._meta]))
    expect(listed.search).toEqual({ tags: ['read-only'] })
    expect(listed['read-page']).toEqual({ group: 'docs' })
    expect(listed.deploy).toEqual({ group: 'ops', tags: ['writes'] })
    expect(listed['answer-later']).toBeUndefined()
  })

  it('refuses a group or tag a header could not name, naming the tool and its file', () => {
    expect(() => createMcpRegistry({ tools: [tool('x', { tags: ['a,b'] })], resources: [], prompts: [] }))
      .toThrow('The tool "x" (server/mcp/tools/x.ts): its tags "a,b" cannot be named in X-MCP-Tools (tag:<name>)')
    expect(() => createMcpRegistry({ tools: [tool('x', { group: '' })], resources: [], prompts: [] })).toThrow('its group "" cannot be named')
  })

  it('gives no group for a folder a header could not name, and keeps serving (the app never chose one)', () => {
    const made = createMcpRegistry({ tools: [tool('x', {}, { folder: 'réglages' }), tool('y', {}, { folder: 'a,b' })], resources: [], prompts: [] })
    expect(made.lists.tools.map(item => item._meta)).toEqual([undefined, undefined])
  })
})
