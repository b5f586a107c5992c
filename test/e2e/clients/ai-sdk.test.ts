import { createMCPClient, ElicitationRequestSchema } from '@ai-sdk/mcp'
import type { ElicitationRequest, MCPClient } from '@ai-sdk/mcp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { textOf } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'

// The Vercel AI SDK's MCP client, as an agent built on it would use it: no mocks, real HTTP
// against the built fixtures. By default it probes 2026-07-28 with `server/discover`; with
// `protocolVersionDiscovery: false` it starts with a legacy `initialize` instead.
let basic: RunningFixture
let elicitation: RunningFixture

beforeAll(async () => {
  [basic, elicitation] = await Promise.all([startFixture('basic'), startFixture('elicitation')])
})
afterAll(async () => {
  await Promise.all([basic?.stop(), elicitation?.stop()])
})

const eras = [
  { era: 'modern', discovery: true, version: '2026-07-28' },
  { era: 'legacy', discovery: false, version: '2025-11-25' },
] as const

describe.each(eras)('@ai-sdk/mcp, $era era', ({ discovery, version }) => {
  let clients: MCPClient[] = []

  /** Connects with the elicitation capability: without it the server must not elicit. */
  async function connect(url: URL): Promise<MCPClient> {
    const client = await createMCPClient({
      transport: { type: 'http', url: url.href },
      protocolVersionDiscovery: discovery,
      capabilities: { elicitation: {} },
      clientName: 'ai-sdk-e2e',
    })
    clients.push(client)
    return client
  }

  afterAll(async () => {
    await Promise.all(clients.map(client => client.close()))
    clients = []
  })

  it('connects in the expected era and lists the tools', async () => {
    const client = await connect(basic.url)
    expect(client.initializeResult.protocolVersion).toBe(version)
    expect(client.serverInfo.name).toBe('basic-fixture')
    const { tools } = await client.listTools()
    expect(tools.map(tool => tool.name).sort()).toEqual(['add', 'book', 'contact', 'context', 'deploy', 'echo', 'fail', 'from_layer', 'rate'])
    expect(tools.find(tool => tool.name === 'echo')?.description).toBe('Repeats the text')
  })

  it('calls echo, with structured output on add', async () => {
    const client = await connect(basic.url)
    const echoed = await client.callTool({ name: 'echo', arguments: { text: 'hey', times: 3 } })
    expect(echoed.isError).toBeFalsy()
    expect(textOf(echoed)).toBe('hey hey hey')
    const sum = await client.callTool({ name: 'add', arguments: { a: 40, b: 2 } })
    expect(sum.structuredContent).toEqual({ sum: 42 })
  })

  it('answers ask_confirm through onElicitationRequest', async () => {
    const client = await connect(elicitation.url)
    const received: ElicitationRequest['params'][] = []
    client.onElicitationRequest(ElicitationRequestSchema, (request) => {
      received.push(request.params)
      return { action: 'accept', content: { confirm: true } }
    })
    const result = await client.callTool({ name: 'ask_confirm', arguments: {} })
    expect(textOf(result)).toBe('confirmed')
    // Exactly one question reached the handler, and it was the tool's.
    expect(received).toHaveLength(1)
    expect(received[0]?.message).toBe('Delete everything?')
    expect(received[0]?.requestedSchema).toMatchObject({ type: 'object', properties: { confirm: { type: 'boolean' } } })
  })

  it('gets "not confirmed" when the handler declines', async () => {
    const client = await connect(elicitation.url)
    client.onElicitationRequest(ElicitationRequestSchema, () => ({ action: 'decline' }))
    expect(textOf(await client.callTool({ name: 'ask_confirm', arguments: {} }))).toBe('not confirmed')
  })
})
