// MCP Apps on the wire, in both eras, against the built `views` fixture: views in app/mcp/*.vue
// are `ui://` resources of mime type text/html;profile=mcp-app with their `_meta.ui`, tools that
// name them carry `_meta.ui.resourceUri` (and the flat key), and the extension is advertised.
// Judged by ext-apps' own schema.json and the spec's JSON Schemas of both revisions.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import Ajv2020 from 'ajv/dist/2020'
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildFixture, repoRoot, startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { connectLegacy } from '../../utils/clients'
import { postModern } from '../../utils/raw'

const MIME = 'text/html;profile=mcp-app'
const EXTENSION = 'io.modelcontextprotocol/ui'

const require = createRequire(import.meta.url)
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true })
ajv.addSchema(JSON.parse(readFileSync(require.resolve('@modelcontextprotocol/ext-apps/schema.json'), 'utf8')), 'ext-apps')
for (const revision of ['2025-11-25', '2026-07-28']) ajv.addSchema(JSON.parse(readFileSync(resolve(repoRoot, `test/spec/mcp-schema-${revision}.json`), 'utf8')), revision)

/** Validates `value` against `$defs/<name>` of a loaded schema, failing with ajv's errors. */
function expectValid(schema: string, name: string, value: unknown): void {
  const validate = ajv.getSchema(`${schema}#/$defs/${name}`)
  if (!validate) throw new Error(`no $defs/${name} in ${schema}`)
  expect(validate(value), `${schema} ${name}: ${JSON.stringify(validate.errors)}`).toBe(true)
}

let fixture: RunningFixture
let legacy: LegacyClient

beforeAll(async () => {
  await buildFixture('views', { reuse: true })
  fixture = await startFixture('views')
  legacy = await connectLegacy(fixture.url)
}, 180_000)

afterAll(async () => {
  await legacy?.close()
  await fixture?.stop()
})

describe('MCP Apps on a 2025-11-25 session (v1 SDK client)', () => {
  it('advertises the extension in initialize', () => {
    const capabilities = legacy.getServerCapabilities()
    expect(capabilities?.extensions).toEqual({ [EXTENSION]: { elicitation: {} } })
    expectValid('2025-11-25', 'ServerCapabilities', capabilities)
  })

  it('lists each view as a ui:// resource with its mime type and _meta.ui', async () => {
    const { resources } = await legacy.listResources()
    expectValid('2025-11-25', 'ListResourcesResult', { resources })
    const greeting = resources.find(resource => resource.uri === 'ui://greeting')
    expect(greeting).toMatchObject({ name: 'greeting', mimeType: MIME, title: 'Greeting card', description: 'Shows a greeting and counts the visits' })
    const bordered = resources.find(resource => resource.uri === 'ui://bordered')
    expect(bordered?._meta).toEqual({
      'ui': { prefersBorder: true, csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] }, permissions: { clipboardWrite: {} } },
      // ChatGPT widens its sandbox's CSP only from its own key, snake_case.
      'openai/widgetCSP': { connect_domains: ['https://api.example.com'], resource_domains: ['https://cdn.example.com'] },
    })
    expectValid('ext-apps', 'McpUiResourceMeta', bordered?._meta?.ui)
  })

  it('reads a view as one self-contained HTML document', async () => {
    const result = await legacy.readResource({ uri: 'ui://greeting' })
    expectValid('2025-11-25', 'ReadResourceResult', result)
    const [content] = result.contents
    expect(content).toMatchObject({ uri: 'ui://greeting', mimeType: MIME })
    const html = content && 'text' in content ? content.text : ''
    expect(html).toMatch(/^<!doctype html>/)
    // Everything inline: no script or stylesheet fetched from anywhere.
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet/)
    expect(html).toContain('Count a visit')
    // The component the view imports, and its scoped CSS, are bundled in.
    expect(html).toMatch(/\.badge\[data-v-[0-9a-f]+\]/)
    // The view's `defineMcpView` reached the content too, where hosts look first.
    const bordered = await legacy.readResource({ uri: 'ui://bordered' })
    expect(bordered.contents[0]?._meta).toEqual({ 'ui': expect.objectContaining({ prefersBorder: true }), 'openai/widgetCSP': expect.objectContaining({ connect_domains: ['https://api.example.com'] }) })
    console.info(`[apps] ui://greeting: ${html.length} bytes, ${gzipSync(html).length} gzip`)
  })

  it('lists a tool with its view in _meta.ui and the flat ui/resourceUri key', async () => {
    const { tools } = await legacy.listTools()
    expectValid('2025-11-25', 'ListToolsResult', { tools })
    const byName = new Map(tools.map(tool => [tool.name, tool]))
    expect(byName.get('greet')?._meta).toEqual({ 'ui': { resourceUri: 'ui://greeting' }, 'ui/resourceUri': 'ui://greeting' })
    expect(byName.get('count-visit')?._meta).toEqual({ 'ui': { resourceUri: 'ui://greeting', visibility: ['app'] }, 'ui/resourceUri': 'ui://greeting' })
    expect(byName.get('plain')?._meta).toEqual({ 'example.com/owner': 'fixture' })
    for (const name of ['greet', 'count-visit']) expectValid('ext-apps', 'McpUiToolMeta', byName.get(name)?._meta?.ui)
  })

  it('serves a tool a view declares itself (@nuxtjs/mcp-toolkit\'s way), its handler kept out of the view', async () => {
    const { tools } = await legacy.listTools()
    const tool = tools.find(entry => entry.name === 'weather-card')
    expect(tool).toMatchObject({
      description: 'The weather of a city, as a card',
      inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'The city' } }, required: ['city'] },
      _meta: { 'ui': { resourceUri: 'ui://weather-card' }, 'ui/resourceUri': 'ui://weather-card' },
    })
    // The handler's plain object is the result's structuredContent: the view's `data`.
    const result = await legacy.callTool({ name: 'weather-card', arguments: { city: 'Lyon' } })
    expect(result.structuredContent).toMatchObject({ city: 'Lyon', celsius: expect.any(Number), source: 'SERVER-ONLY-FORECAST' })
    const invalid = await legacy.callTool({ name: 'weather-card', arguments: {} })
    expect(invalid.isError).toBe(true)
    const { resources } = await legacy.listResources()
    expect(resources.find(resource => resource.uri === 'ui://weather-card')).toMatchObject({ description: 'The weather of a city, as a card', _meta: { ui: { prefersBorder: true } } })
    const read = await legacy.readResource({ uri: 'ui://weather-card' })
    const html = read.contents[0] && 'text' in read.contents[0] ? read.contents[0].text : ''
    expect(html).toContain('Looking outside')
    // Neither the handler nor the server code it imports reached the browser bundle.
    for (const serverOnly of ['SERVER-ONLY-FORECAST', 'createHash', 'node:crypto']) expect(html).not.toContain(serverOnly)
  })

  it('a tool with a view still answers like any tool', async () => {
    const result = await legacy.callTool({ name: 'greet', arguments: { name: 'Ada' } })
    expect(result.structuredContent).toEqual({ greeting: 'Hello, Ada!' })
  })
})

describe('MCP Apps on 2026-07-28 (stateless)', () => {
  it('advertises the extension in server/discover', async () => {
    const { message } = await postModern(fixture.url, 'server/discover', {})
    expectValid('2026-07-28', 'DiscoverResult', message.result)
    expect((message.result?.capabilities as Record<string, unknown>).extensions).toEqual({ [EXTENSION]: { elicitation: {} } })
  })

  it('lists and reads the views, and lists the tools with their _meta.ui', async () => {
    const listed = await postModern(fixture.url, 'resources/list', {})
    expectValid('2026-07-28', 'ListResourcesResult', listed.message.result)
    const resources = listed.message.result?.resources as { uri: string, mimeType?: string }[]
    expect(resources.filter(resource => resource.mimeType === MIME).map(resource => resource.uri).sort()).toEqual(['ui://bordered', 'ui://date-range', 'ui://greeting', 'ui://weather-card'])
    const read = await postModern(fixture.url, 'resources/read', { uri: 'ui://greeting' })
    expectValid('2026-07-28', 'ReadResourceResult', read.message.result)
    expect((read.message.result?.contents as { mimeType: string, text: string }[])[0]).toMatchObject({ mimeType: MIME, text: expect.stringContaining('Count a visit') })
    const bordered = await postModern(fixture.url, 'resources/read', { uri: 'ui://bordered' })
    expect((bordered.message.result?.contents as { _meta?: Record<string, unknown> }[])[0]?._meta).toMatchObject({
      'ui': { csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] } },
      'openai/widgetCSP': { connect_domains: ['https://api.example.com'], resource_domains: ['https://cdn.example.com'] },
    })
    const tools = await postModern(fixture.url, 'tools/list', {})
    expectValid('2026-07-28', 'ListToolsResult', tools.message.result)
    const greet = (tools.message.result?.tools as { name: string, _meta?: Record<string, unknown> }[]).find(tool => tool.name === 'greet')
    expect(greet?._meta).toEqual({ 'ui': { resourceUri: 'ui://greeting' }, 'ui/resourceUri': 'ui://greeting' })
  })
})
