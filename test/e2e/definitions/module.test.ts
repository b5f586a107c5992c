import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import { postModern } from '../../utils/raw'
import { openRawLegacy, singleMessage } from '../../utils/raw-legacy'
import contactSchema from '../../fixtures/basic/contact-schema.json'
import type { RunningFixture } from '../../utils/fixture'

let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('basic')
})
afterAll(async () => {
  await app?.stop()
})


describe('a tool with a JSON Schema written by hand', () => {
  it('is listed exactly as written, key order and $schema kept, in both eras', async () => {
    const written = JSON.stringify(contactSchema)
    const modern = await postModern(app.url, 'tools/list', {})
    const listedModern = (modern.message.result?.tools as { name: string, inputSchema: unknown }[]).find(tool => tool.name === 'contact')
    expect(JSON.stringify(listedModern?.inputSchema)).toBe(written)
    const session = await openRawLegacy(app)
    const legacy = await singleMessage(await session.post({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }))
    const listedLegacy = (legacy.result?.tools as { name: string, inputSchema: unknown }[]).find(tool => tool.name === 'contact')
    expect(JSON.stringify(listedLegacy?.inputSchema)).toBe(written)
    await session.close()
  })
})

const eras = [
  { era: 'legacy', connect: (url: URL) => connectLegacy(url) },
  { era: 'modern', connect: (url: URL) => connectModern(url) },
] as const

describe.each(eras)('$era client', ({ era, connect }) => {
  it('lists the discovered tools, with the app overriding its layer', async () => {
    const client = await connect(app.url)
    const { tools } = await client.listTools()
    const names = tools.map(tool => tool.name).sort()
    expect(names).toEqual(['add', 'book', 'contact', 'context', 'deploy', 'echo', 'fail', 'from_layer', 'rate'])
    const echo = tools.find(tool => tool.name === 'echo')!
    expect(echo.description).toBe('Repeats the text')
    expect(echo.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string', minLength: 1 } }, required: ['text'] })
    const add = tools.find(tool => tool.name === 'add')!
    expect(add.title).toBe('Add numbers')
    expect(add.outputSchema).toMatchObject({ type: 'object', properties: { sum: { type: 'number' } } })
    expect(add.annotations).toEqual({ readOnlyHint: true })
    await client.close()
  })

  it('calls tools: string result, structured output, layer tool', async () => {
    const client = await connect(app.url)
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi', times: 2 } }))).toBe('hi hi')
    const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })
    expect(sum.structuredContent).toEqual({ sum: 5 })
    expect(textOf(await client.callTool({ name: 'from_layer', arguments: {} }))).toBe('hello from the layer')
    await client.close()
  })

  it('turns invalid arguments into an isError result naming the fields', async () => {
    const client = await connect(app.url)
    const result = await client.callTool({ name: 'echo', arguments: { text: '', times: 9 } })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/text/)
    expect(textOf(result)).toMatch(/times/)
    await client.close()
  })

  it('checks a JSON Schema tool\'s arguments with it (2020-12: $ref, if/then/else, additionalProperties)', async () => {
    const client = await connect(app.url)
    const call = (args: Record<string, unknown>) => client.callTool({ name: 'contact', arguments: args })
    expect(textOf(await call({ name: 'Ada', contactMethod: 'phone', phone: '555', address: { city: 'London' } }))).toBe('saved Ada (555)')
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: 'Ada', contactMethod: 'phone', email: 'a@b.c' }, /required property "phone"/],
      [{ name: 'Ada', email: 'a@b.c', nickname: 'A' }, /"nickname"/],
      [{ name: 'Ada', email: 'a@b.c', address: { city: 7 } }, /#\/address\/city/],
    ]
    for (const [args, problem] of cases) {
      const result = await call(args)
      expect(result.isError, JSON.stringify(args)).toBe(true)
      expect(textOf(result)).toMatch(/^Invalid arguments for tool "contact": /)
      expect(textOf(result)).toMatch(problem)
    }
    await client.close()
  })

  it('serves tools whose inputSchema is a Valibot or ArkType schema: listed from their converters, checked by them', async () => {
    const client = await connect(app.url)
    const { tools } = await client.listTools()
    expect(tools.find(tool => tool.name === 'book')?.inputSchema).toMatchObject({ type: 'object', properties: { show: { type: 'string', minLength: 1 }, seats: { type: 'integer', minimum: 1 } }, required: ['show', 'seats'] })
    expect(tools.find(tool => tool.name === 'rate')?.inputSchema).toMatchObject({ type: 'object', properties: { film: { type: 'string', minLength: 1 }, stars: { type: 'integer', minimum: 1, maximum: 5 } } })
    expect(tools.find(tool => tool.name === 'book')?.outputSchema).toMatchObject({ type: 'object', properties: { reference: { type: 'string' } }, required: ['show', 'seats', 'reference'] })
    expect((await client.callTool({ name: 'book', arguments: { show: 'Hamlet', seats: 2 } })).structuredContent).toEqual({ show: 'Hamlet', seats: 2, reference: 'HAM-2' })
    expect(textOf(await client.callTool({ name: 'rate', arguments: { film: 'Alien', stars: 5 } }))).toBe('Alien: *****')
    const badBooking = await client.callTool({ name: 'book', arguments: { show: '', seats: 1.5 } })
    expect(badBooking.isError).toBe(true)
    expect(textOf(badBooking)).toMatch(/^Invalid arguments for tool "book": show: .*; seats: /)
    const badRating = await client.callTool({ name: 'rate', arguments: { film: 'Alien', stars: 9 } })
    expect(badRating.isError).toBe(true)
    expect(textOf(badRating)).toMatch(/^Invalid arguments for tool "rate": stars: /)
    await client.close()
  })

  it('turns a throwing handler into an isError result with its message', async () => {
    const client = await connect(app.url)
    const result = await client.callTool({ name: 'fail', arguments: {} })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toBe('The database is on fire')
    await client.close()
  })

  it('refuses an unknown tool with a JSON-RPC error naming it', async () => {
    const client = await connect(app.url)
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool "nope"/)
    await client.close()
  })

  it('passes the handler context (era, event, signal, session)', async () => {
    const client = await connect(app.url)
    const context = JSON.parse(textOf(await client.callTool({ name: 'context', arguments: {} })))
    expect(context).toEqual({ era, hasEvent: true, signal: true, principal: null, session: era === 'legacy' })
    await client.close()
  })

  it('reads a fixed resource and a templated one', async () => {
    const client = await connect(app.url)
    const { resources } = await client.listResources()
    expect(resources).toEqual([{ name: 'app-config', uri: 'config://app', mimeType: 'application/json', description: 'The app configuration' }])
    const { resourceTemplates } = await client.listResourceTemplates()
    expect(resourceTemplates).toEqual([{ name: 'user-profile', uriTemplate: 'users://{id}/profile', description: 'A user profile by id' }])
    const fixed = await client.readResource({ uri: 'config://app' })
    expect(fixed.contents[0]).toMatchObject({ uri: 'config://app', text: '{"theme":"dark"}' })
    const templated = await client.readResource({ uri: 'users://42/profile' })
    expect(templated.contents[0]).toMatchObject({ uri: 'users://42/profile', text: 'Profile of user 42' })
    await expect(client.readResource({ uri: 'users://nobody' })).rejects.toThrow(/Resource not found/)
    await client.close()
  })

  it('gets a prompt with arguments and refuses missing ones', async () => {
    const client = await connect(app.url)
    const { prompts } = await client.listPrompts()
    expect(prompts).toEqual([
      { name: 'review', description: 'Review a file', arguments: [{ name: 'file', description: 'The file', required: true }, { name: 'focus', required: false }] },
      { name: 'summarize', description: 'Summarize a text', arguments: [{ name: 'text', description: 'The text', required: true }, { name: 'length', required: false }] },
    ])
    const prompt = await client.getPrompt({ name: 'review', arguments: { file: 'a.ts', focus: 'naming' } })
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Review a.ts focusing on naming.' } }])
    await expect(client.getPrompt({ name: 'review', arguments: {} })).rejects.toThrow(/file/)
    // Valibot arguments: checked by Valibot, its default filled in.
    const summary = await client.getPrompt({ name: 'summarize', arguments: { text: 'MCP' } })
    expect(summary.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Summarize in a short paragraph: MCP' } }])
    await expect(client.getPrompt({ name: 'summarize', arguments: { text: 'MCP', length: 'epic' } })).rejects.toThrow(/Invalid arguments for prompt "summarize": length: /)
    await client.close()
  })
})
