import { describe, expect, it } from 'vitest'
import { printDevBanner, reportRescan, warnAboutDefinitions } from '../../../src/build/dev/feedback'
import { babelParse } from 'vue/compiler-sfc'
import { readDefinition } from '../../../src/build/definitions/read'
import type { ScannedDefinition } from '../../../src/build/definitions/scan'

function collect() {
  const lines: { level: 'info' | 'warn', message: string }[] = []
  return { lines, logger: { info: (message: string) => lines.push({ level: 'info', message }), warn: (message: string) => lines.push({ level: 'warn', message }) } }
}

const entry = (kind: ScannedDefinition['kind'], name: string, hasDescription: boolean): ScannedDefinition =>
  ({ kind, name, hasDescription, refusedFormConstructs: [], mayDeclareJsonSchema: false, path: `/app/server/mcp/${kind}/${name}.ts`, file: `server/mcp/${kind}/${name}.ts`, fallbackName: name, layerIndex: 0 })

/** Zod constructs written in a file's form() calls that forms cannot hold, as the build reads them. */
const findRefusedFormConstructs = (source: string) => readDefinition(babelParse, source).refusedFormConstructs

describe('readDefinition: the top-level keys the warnings use', () => {
  it('reads top-level keys and string values, not nested ones', () => {
    const reading = readDefinition(babelParse, `export default defineMcpTool({
      name: 'send_mail',
      inputSchema: { description: z.string(), name: z.string() },
      description,
      async handler() { return 'x' },
    })`)
    expect(reading.name).toBe('send_mail')
    // The shape's own `description` field is not the tool's: this one is the shorthand below.
    expect(reading.hasDescription).toBe(true)
    expect(readDefinition(babelParse, `export default defineMcpTool({ inputSchema: { description: z.string() }, handler() { return 'x' } })`).hasDescription).toBe(false)
    // A method key is a key (`description() {…}` would count as written).
    expect(readDefinition(babelParse, `export default defineMcpTool({ handler() { return 'x' }, description() { return 'd' } })`).hasDescription).toBe(true)
  })
})

describe('warnAboutDefinitions', () => {
  it('warns about tools and prompts without a description, naming the file', () => {
    const { lines, logger } = collect()
    warnAboutDefinitions(logger, [entry('tools', 'a', false), entry('tools', 'b', true), entry('prompts', 'p', false), entry('resources', 'r', false)], false)
    expect(lines.map(line => line.message)).toEqual([
      expect.stringContaining('server/mcp/tools/a.ts: the tool "a" has no `description`'),
      expect.stringContaining('server/mcp/prompts/p.ts: the prompt "p" has no `description`'),
    ])
  })

  it('warns about a production build without NUXT_MCP_STATE_SECRET', () => {
    const { lines, logger } = collect()
    const previous = process.env.NUXT_MCP_STATE_SECRET
    delete process.env.NUXT_MCP_STATE_SECRET
    warnAboutDefinitions(logger, [], true)
    if (previous !== undefined) process.env.NUXT_MCP_STATE_SECRET = previous
    expect(lines).toEqual([{ level: 'warn', message: expect.stringContaining('NUXT_MCP_STATE_SECRET is not set') }])
  })
})

describe('printDevBanner', () => {
  it('prints the endpoint, the counts and copy-paste client configs', () => {
    const { lines, logger } = collect()
    printDevBanner(logger, 'http://localhost:3000/mcp', 'my app', [entry('tools', 'a', true), entry('tools', 'b', true), entry('prompts', 'p', true)])
    const text = lines[0]!.message
    expect(text).toContain('MCP endpoint: http://localhost:3000/mcp (2 tools, 0 resources, 1 prompt)')
    expect(text).toContain('{"mcpServers":{"my-app":{"url":"http://localhost:3000/mcp"}}}')
    expect(text).toContain('{"servers":{"my-app":{"type":"http","url":"http://localhost:3000/mcp"}}}')
    expect(text).toContain('claude mcp add --transport http my-app http://localhost:3000/mcp')
  })

  it('gives another endpoint its own configs, under its own server name', () => {
    const { lines, logger } = collect()
    printDevBanner(logger, 'http://localhost:3000/mcp/admin', 'my app-admin', [entry('tools', 'refund', true)])
    const text = lines[0]!.message
    expect(text).toContain('MCP endpoint: http://localhost:3000/mcp/admin (1 tool, 0 resources, 0 prompts)')
    // The same Inspector command and link as the DevTools tab's (devtools/inspector-link.ts).
    expect(text).toContain('Inspector  npx @modelcontextprotocol/inspector --transport http --server-url http://localhost:3000/mcp/admin  (already running: http://localhost:6274/?transport=streamable-http&serverUrl=http%3A%2F%2Flocalhost%3A3000%2Fmcp%2Fadmin)')
    expect(text).toContain('{"mcpServers":{"my-app-admin":{"url":"http://localhost:3000/mcp/admin"}}}')
    expect(text).toContain('claude mcp add --transport http my-app-admin http://localhost:3000/mcp/admin')
  })
})

describe('the refused form constructs (readDefinition)', () => {
  it('finds refused constructs inside form() calls only', () => {
    const source = `
      const other = z.object({ a: z.string() }) // outside a form: fine (tool input schemas may nest)
      await elicit.form({ message: 'x', schema: { address: z.object({ street: z.string() }), when: z.date(), ids: z.array(z.number()) } })
      await elicit.form({ message: 'y', schema: { tags: z.array(z.enum(['a'])) } })
    `
    expect(findRefusedFormConstructs(source)).toEqual(['z.object (nested objects)', 'z.date (use z.iso.date() or z.iso.datetime())', 'z.array of anything but enums (use z.array(z.enum([...])))'])
    expect(findRefusedFormConstructs(`await elicit.form({ message: 'ok', schema: { a: z.string(), b: z.array(z.enum(['x'])) } })`)).toEqual([])
  })

  it('is reported as a build warning naming the file', () => {
    const { lines, logger } = collect()
    warnAboutDefinitions(logger, [{ ...entry('tools', 'bad', true), refusedFormConstructs: ['z.record'] }], false)
    expect(lines[0]?.message).toMatch(/server\/mcp\/tools\/bad.ts: a form\(\) schema uses z.record/)
  })
})

describe('reportRescan (nuxi dev, after a definition file changed)', () => {
  const url = 'http://localhost:3000/mcp'

  it('warns about what is new and prints the endpoint line when the counts changed', () => {
    const { lines, logger } = collect()
    const first = reportRescan(logger, url, { summary: '', warnings: new Set() }, [entry('tools', 'a', true)])
    expect(lines).toEqual([{ level: 'info', message: 'MCP endpoint: http://localhost:3000/mcp (1 tool, 0 resources, 0 prompts)' }])
    lines.length = 0
    reportRescan(logger, url, first, [entry('tools', 'a', true), entry('tools', 'b', false)])
    expect(lines).toEqual([
      { level: 'warn', message: expect.stringContaining('server/mcp/tools/b.ts: the tool "b" has no `description`') },
      { level: 'info', message: 'MCP endpoint: http://localhost:3000/mcp (2 tools, 0 resources, 0 prompts)' },
    ])
  })

  it('says nothing again when nothing it reports changed', () => {
    const { lines, logger } = collect()
    const found = [entry('tools', 'a', false)]
    const said = reportRescan(logger, url, { summary: '', warnings: new Set() }, found)
    lines.length = 0
    reportRescan(logger, url, said, found)
    expect(lines).toEqual([])
  })
})
