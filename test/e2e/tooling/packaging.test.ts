import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nodeBinary } from '../../../scripts/node-runtime.mjs'
import { startMcpTestApp } from '../../../src/testing'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import type { ScriptedAnswer } from '../../utils/clients'
import { repoRoot } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { buildApp, installApp, packModule, typecheckApp, userEnv, writeFiles } from '../../utils/pack'
import type { PackedModule } from '../../utils/pack'

// What a user gets from the registry: the packed tarball, installed into a fresh Nuxt 4 app that
// lives outside this repo (so nothing resolves through the repo's own node_modules or src/).

const SCRATCH_FILES: Record<string, string> = {
  'nuxt.config.ts': `export default defineNuxtConfig({ modules: ['nuxt-mcp-elicitation'] })\n`,
  // The README quickstart, relying on the auto-import.
  'server/mcp/tools/echo.ts': `import { z } from 'zod'

export default defineMcpTool({
  description: 'Repeats the text',
  inputSchema: { text: z.string() },
  handler: async ({ text }) => \`echo: \${text}\`,
})
`,
  // The documented explicit-import subpath.
  'server/mcp/tools/pick-channel.ts': `import { z } from 'zod'
import { defineMcpTool, useMcpElicitation } from 'nuxt-mcp-elicitation/runtime'

export default defineMcpTool({
  name: 'pick_channel',
  description: 'Asks which channel to release on',
  inputSchema: { release: z.string() },
  async handler({ release }) {
    const answer = await useMcpElicitation().form({
      message: \`Pick a channel for \${release}\`,
      schema: { channel: z.enum(['stable', 'beta']) },
    })
    if (answer.action !== 'accept') return \`Cancelled (\${answer.action}).\`
    return \`\${release} on \${answer.content.channel}\`
  },
})
`,
  // Compiled by tsc only (not part of the Nuxt build): both entry points must carry real types.
  'types-check/check.ts': `import mcpModule from 'nuxt-mcp-elicitation'
import type { ModuleOptions } from 'nuxt-mcp-elicitation'
import { defineMcpTool, McpElicitationError, useMcpElicitation } from 'nuxt-mcp-elicitation/runtime'
import type { McpElicitation } from 'nuxt-mcp-elicitation/runtime'
import { z } from 'zod'

export const options: Partial<ModuleOptions> = { route: '/mcp', elicitation: { timeoutMs: 1000 } }
// @ts-expect-error: a real ModuleOptions type (not any) refuses a numeric route.
export const wrong: Partial<ModuleOptions> = { route: 42 }
export const tool = defineMcpTool({
  inputSchema: { n: z.number() },
  // @ts-expect-error: the arguments are typed from the shape, so n is not a string.
  handler: ({ n }) => n.toUpperCase(),
})
export const elicit: () => McpElicitation = useMcpElicitation
export { mcpModule, McpElicitationError }
`,
  'types-check/tsconfig.json': JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, noEmit: true, skipLibCheck: true, types: [] },
    files: ['check.ts'],
  }, null, 2),
}

/** The versions this repo builds and tests with (its own package.json). */
const REPO_MANIFEST = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }

function scratchPackageJson(tarball: string, nuxt: string): string {
  return JSON.stringify({
    name: 'scratch-mcp-app',
    private: true,
    type: 'module',
    dependencies: {
      'nuxt-mcp-elicitation': `file:${tarball}`,
      // Nothing else: no vite or cssnano pin, which a user on Node 22, 24 or 26 needs none of.
      nuxt,
      'zod': REPO_MANIFEST.devDependencies.zod,
    },
  }, null, 2)
}

/**
 * The newest Nuxt 4 release on the registry now: what `npm install nuxt` gives a new app today,
 * which the suite's pinned Nuxt may lag behind. Asked online at each run, so a Nuxt release that
 * breaks the module fails this test the day it is out.
 */
function newestNuxt4(): string {
  const listed: unknown = JSON.parse(execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['view', 'nuxt@^4', 'version', '--json'], { encoding: 'utf8', env: userEnv(), timeout: 60_000 }))
  const versions = (Array.isArray(listed) ? listed : [listed]).filter((version): version is string => typeof version === 'string' && /^4\.\d+\.\d+$/.test(version))
  if (versions.length === 0) throw new Error(`npm view nuxt@^4 version gave ${JSON.stringify(listed)}: no 4.x.y release in it.`)
  // npm lists the versions in the registry's order, not by version (4.6.4 came before 4.6.3 there).
  const parts = (version: string) => version.split('.').map(Number)
  return versions.reduce((newest, version) => {
    const [a, b] = [parts(version), parts(newest)]
    const order = a.map((part, index) => part - (b[index] ?? 0)).find(difference => difference !== 0) ?? 0
    return order > 0 ? version : newest
  })
}


/** Every file path package.json points at (main, exports, typesVersions), without `./`. */
function declaredEntryPaths(manifest: Record<string, unknown>): string[] {
  const paths: string[] = []
  const collect = (value: unknown) => {
    if (typeof value === 'string') paths.push(value.replace(/^\.\//, ''))
    else if (Array.isArray(value)) value.forEach(collect)
    else if (value && typeof value === 'object') Object.values(value).forEach(collect)
  }
  collect(manifest.main)
  collect(manifest.exports)
  collect(manifest.typesVersions)
  return paths
}

/**
 * The Nodes a user runs, every major Nuxt 4.5 supports: the one running the suite (24 in CI) and
 * the others from npm (22 in maintenance, 26 the active LTS in December 2026).
 */
const SUITE_MAJOR = Number(process.versions.node.split('.')[0])
const PINNED_NUXT = REPO_MANIFEST.devDependencies.nuxt!
const NODES = [
  { label: `Node ${process.versions.node} (the suite's), Nuxt ${PINNED_NUXT}`, major: SUITE_MAJOR, binary: () => process.execPath, nuxt: () => PINNED_NUXT },
  ...([22, 24, 26] as const).filter(major => major !== SUITE_MAJOR).map(major => ({ label: `Node ${major}, Nuxt ${PINNED_NUXT}`, major, binary: () => nodeBinary(major), nuxt: () => PINNED_NUXT })),
  // And on the suite's Node, the Nuxt a new app gets today.
  { label: `Node ${process.versions.node}, the newest Nuxt 4`, major: SUITE_MAJOR, binary: () => process.execPath, nuxt: newestNuxt4 },
]

let scratch: string
let packed: PackedModule

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'nuxt-mcp-pack-'))
  packed = await packModule(join(scratch, 'tarball'))
}, 300_000)

afterAll(async () => {
  // The tarball was packed into the scratch folder, so this removes it too.
  if (scratch) await rm(scratch, { recursive: true, force: true })
})

describe('the packed module', () => {
  it('holds the built module and runtime, and every path package.json declares', async () => {
    const manifest = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as Record<string, unknown>
    const declared = declaredEntryPaths(manifest)
    expect(declared).toContain('dist/module.mjs')
    expect(declared).toContain('dist/runtime/server/index.js')
    for (const path of declared) expect(packed.files, `package.json points at ${path}`).toContain(path)
    expect(packed.files).toContain('package.json')
    // Only the build ships: no sources, tests or fixtures.
    expect(packed.files.filter(path => !path.startsWith('dist/') && !/^(?:package\.json|README\.md|LICENSE)$/i.test(path))).toEqual([])
  })
})

describe.each(NODES)('a fresh app with the packed module on $label', ({ major, binary, nuxt }) => {
  let node: string
  let nuxtVersion: string
  let appDir: string
  let app: RunningFixture

  beforeAll(async () => {
    node = binary()
    nuxtVersion = nuxt()
    appDir = await mkdtemp(join(scratch, 'app-'))
    await writeFiles(appDir, { 'package.json': scratchPackageJson(packed.tarball, nuxtVersion), ...SCRATCH_FILES })
    await installApp(appDir, node)
    await buildApp(appDir, node)
    // An absolute path resolves to itself; the app runs on the same Node that built it.
    app = await startMcpTestApp(appDir, { node })
  }, 600_000)

  afterAll(async () => {
    await app?.stop()
  })

  it('was installed, built and served on that Node and that Nuxt', async () => {
    expect(execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()).toMatch(new RegExp(`^v${major}\\.`))
    expect(app.process.spawnargs[0]).toBe(node)
    const installed = JSON.parse(await readFile(join(appDir, 'node_modules/nuxt/package.json'), 'utf8')) as { version: string }
    console.log(`packaging: a fresh app on Node ${major} with Nuxt ${installed.version}`)
    expect(installed.version).toBe(nuxtVersion)
  })

  it('type-checks a consumer importing both entry points', async () => {
    await expect(typecheckApp(join(appDir, 'types-check'))).resolves.toBeDefined()
  }, 120_000)

  it('serves tools/list and tools/call to a legacy client', async () => {
    const client = await connectLegacy(app.url, { answer: () => ({ action: 'accept', content: { channel: 'stable' } }) })
    const { tools } = await client.listTools()
    expect(tools.map(tool => tool.name).sort()).toEqual(['echo', 'pick_channel'])
    expect(tools.find(tool => tool.name === 'echo')?.description).toBe('Repeats the text')
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'legacy' } }))).toBe('echo: legacy')
    expect(textOf(await client.callTool({ name: 'pick_channel', arguments: { release: 'v1' } }))).toBe('v1 on stable')
    await client.close()
  })

  it('serves tools/list, tools/call and an elicitation to a modern client', async () => {
    const received: Record<string, unknown>[] = []
    const answer = (): ScriptedAnswer => ({ action: 'accept', content: { channel: 'beta' } })
    const client = await connectModern(app.url, { answer, received })
    const { tools } = await client.listTools()
    expect(tools.map(tool => tool.name).sort()).toEqual(['echo', 'pick_channel'])
    expect(tools.find(tool => tool.name === 'pick_channel')?.inputSchema).toMatchObject({ properties: { release: { type: 'string' } }, required: ['release'] })
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'modern' } }))).toBe('echo: modern')
    expect(textOf(await client.callTool({ name: 'pick_channel', arguments: { release: 'v2' } }))).toBe('v2 on beta')
    expect(received).toHaveLength(1)
    expect(received[0]).toMatchObject({ message: 'Pick a channel for v2', requestedSchema: { properties: { channel: { enum: ['stable', 'beta'] } } } })
    await client.close()
  })
})
