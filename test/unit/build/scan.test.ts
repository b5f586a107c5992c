import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { babelParse } from 'vue/compiler-sfc'
import { readDefinition } from '../../../src/build/definitions/read'
import { renderDefinitionsModule, scanDefinitions } from '../../../src/build/definitions/scan'

/** The `name` a definition file declares, as the build reads it. */
const declaredName = (source: string) => readDefinition(babelParse, source).name

describe('the declared name (readDefinition)', () => {
  it('reads the top-level name of each definition kind and quote style', () => {
    expect(declaredName(`export default defineMcpTool({ name: 'a_tool', handler: () => 'x' })`)).toBe('a_tool')
    expect(declaredName(`export default defineMcpResource({\n  uri: 'x://y',\n  name: "a-resource",\n})`)).toBe('a-resource')
    expect(declaredName('export default defineMcpPrompt({ name: `a.prompt` })')).toBe('a.prompt')
  })

  it('ignores a `name` field of the input schema, before or after the real one', () => {
    const before = `defineMcpTool({\n  inputSchema: { name: z.string() },\n  name: 'real',\n})`
    expect(declaredName(before)).toBe('real')
    const only = `defineMcpTool({ inputSchema: { name: z.string().describe('name: "fake"') }, handler: ({ name }) => name })`
    expect(declaredName(only)).toBeUndefined()
  })

  it('ignores names in nested objects, arrays and calls', () => {
    const source = `defineMcpTool({
      annotations: { meta: { name: 'deep' } },
      examples: [{ name: 'in-array' }],
      handler: () => make({ name: 'in-call' }),
    })`
    expect(declaredName(source)).toBeUndefined()
  })

  it('is not thrown off by braces and quotes inside strings', () => {
    const source = `defineMcpTool({
      description: 'a } closing brace, a "quote" and a \\' escaped one {',
      title: "{ name: 'nope' }",
      note: \`template } with \${'x'}\`,
      name: 'after_strings',
    })`
    expect(declaredName(source)).toBe('after_strings')
  })

  it('does not take a key that only ends in "name"', () => {
    expect(declaredName(`defineMcpTool({ displayname: 'no', handler: () => '' })`)).toBeUndefined()
  })

  it('returns undefined without a define call or with a computed name', () => {
    expect(declaredName(`export default { name: 'plain' }`)).toBeUndefined()
    expect(declaredName('defineMcpTool({ name: NAME, handler: () => 1 })')).toBeUndefined()
  })
})

describe('scanDefinitions', () => {
  let root: string

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'mcp-scan-'))
  })
  afterEach(async () => {
    await rm(root, { recursive: true, force: true })
  })

  async function write(path: string, text: string) {
    const full = join(root, path)
    await mkdir(dirname(full), { recursive: true })
    await writeFile(full, text)
  }
  const layer = (name: string) => ({ rootDir: join(root, name), serverDir: join(root, name, 'server') })
  const tool = (name: string) => `export default defineMcpTool({ name: '${name}', handler: () => '${name}' })\n`

  it('gives a tool in a folder under tools/ that folder as its group, as @nuxtjs/mcp-toolkit infers it', async () => {
    await write('app/server/mcp/tools/top.ts', tool('top'))
    await write('app/server/mcp/tools/admin/ban.ts', tool('ban'))
    await write('app/server/mcp/tools/admin/users/list.ts', tool('list'))
    await write('app/server/mcp/prompts/admin/p.ts', 'export default defineMcpPrompt({ handler: () => "p" })\n')
    const found = new Map((await scanDefinitions(babelParse, [layer('app')])).map(entry => [entry.name, entry]))
    expect(found.get('top')?.folder).toBeUndefined()
    expect(found.get('ban')?.folder).toBe('admin')
    expect(found.get('list')?.folder).toBe('admin/users')
    expect(found.get('p')?.folder).toBeUndefined()
    expect(renderDefinitionsModule(new Map([['', [...found.values()]]]))).toContain('fallbackName: "ban", folder: "admin", definition:')
  })

  it('lets the app (first layer) win over a later layer, and keeps the layer\'s other names', async () => {
    await write('app/server/mcp/tools/mine.ts', tool('shared'))
    await write('base/server/mcp/tools/theirs.ts', tool('shared'))
    await write('base/server/mcp/tools/only-base.ts', tool('only_base'))
    // File name as fallback, and a prompt sharing a tool's name is not a clash (different kind).
    await write('base/server/mcp/prompts/shared.ts', 'export default defineMcpPrompt({ handler: () => "p" })\n')

    const found = await scanDefinitions(babelParse, [layer('app'), layer('base')])
    const byKey = new Map(found.map(entry => [`${entry.kind}:${entry.name}`, entry]))
    expect([...byKey.keys()].sort()).toEqual(['prompts:shared', 'tools:only_base', 'tools:shared'])
    expect(byKey.get('tools:shared')).toMatchObject({ layerIndex: 0, file: 'server/mcp/tools/mine.ts', path: join(root, 'app/server/mcp/tools/mine.ts') })
    expect(byKey.get('tools:only_base')).toMatchObject({ layerIndex: 1, fallbackName: 'only-base' })
    expect(byKey.get('prompts:shared')).toMatchObject({ layerIndex: 1, fallbackName: 'shared' })
  })

  it('throws naming both files when one layer declares a name twice', async () => {
    await write('app/server/mcp/tools/a.ts', tool('twice'))
    await write('app/server/mcp/tools/nested/b.ts', tool('twice'))
    const scan = scanDefinitions(babelParse, [layer('app')])
    await expect(scan).rejects.toThrow('Two tools are named "twice"')
    await expect(scan).rejects.toThrow(join(root, 'app/server/mcp/tools/a.ts'))
    await expect(scan).rejects.toThrow(join(root, 'app/server/mcp/tools/nested/b.ts'))
  })

  it('treats a declared name and another file\'s fallback name as the same name', async () => {
    await write('app/server/mcp/tools/echo.ts', 'export default defineMcpTool({ handler: () => "" })\n')
    await write('app/server/mcp/tools/other.ts', tool('echo'))
    await expect(scanDefinitions(babelParse, [layer('app')])).rejects.toThrow(/echo\.ts and .*other\.ts/)
  })

  it('fails the build for a tool whose literal x-mcp-header breaks the rules, naming the tool, file and property', async () => {
    await write('app/server/mcp/tools/deploy.ts', `export default defineMcpTool({\n  inputSchema: { region: z.string().meta({ 'x-mcp-header': 'Re gion' }) },\n  handler: () => '',\n})\n`)
    await expect(scanDefinitions(babelParse, [layer('app')])).rejects.toThrow('[nuxt-mcp-elicitation] The tool "deploy" (server/mcp/tools/deploy.ts): property "region": x-mcp-header "Re gion" is not a header name')
  })

  it('does not throw when the duplicate is in a later layer only once', async () => {
    await write('base/server/mcp/tools/x.ts', tool('x'))
    await write('app/server/mcp/tools/x.ts', tool('x'))
    await write('app/server/mcp/tools/y.ts', tool('y'))
    const found = await scanDefinitions(babelParse, [layer('app'), layer('base')])
    expect(found.map(entry => `${entry.name}@${entry.layerIndex}`).sort()).toEqual(['x@0', 'y@0'])
  })
})
