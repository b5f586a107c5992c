import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cp, readFile, rm, unlink, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, textOf } from '../utils/clients'
import { fixtureDir, freePort, repoRoot } from '../utils/fixture'
import { userEnv } from '../utils/pack'

// `nuxi dev` on a throwaway copy of test/fixtures/dev: tool files added, edited and removed while
// it runs must show up in tools/list without a restart. The copy sits beside the fixtures so the
// app resolves `nuxt` and `zod` from the repo's node_modules like the other fixtures do.

interface ListedTool { name: string, description?: string }

const POLL_MS = 40_000
const nuxi = resolve(repoRoot, 'node_modules/@nuxt/cli/bin/nuxi.mjs')

let appDir: string
let dev: ChildProcess | undefined
let log = ''
let url: URL

function toolFile(description: string, reply: string): string {
  return `export default defineMcpTool({
  name: 'added_tool',
  description: ${JSON.stringify(description)},
  handler: () => ${JSON.stringify(reply)},
})
`
}


/**
 * Lists tools with a brand-new legacy client: a client from before a reload holds a session the
 * reloaded server no longer knows (404), and during a rebuild requests may fail outright.
 */
async function listFresh(): Promise<ListedTool[]> {
  const client = await connectLegacy(url)
  try {
    return (await client.listTools()).tools
  }
  finally {
    await client.close().catch(() => {})
  }
}

async function callFresh(name: string): Promise<string> {
  const client = await connectLegacy(url)
  try {
    return textOf(await client.callTool({ name, arguments: {} }))
  }
  finally {
    await client.close().catch(() => {})
  }
}

/** Polls tools/list until `accept` holds, or fails with the last list and the dev server log. */
/**
 * Saves the fixture's own tool file again, unchanged: Nitro's dev watcher can lose an event that
 * lands while it re-creates itself after a reload (seen on busy CI runs); a person would save again.
 */
async function saveAgain(): Promise<void> {
  const file = join(appDir, 'server/mcp/tools/echo.ts')
  await writeFile(file, await readFile(file, 'utf8'))
}

async function waitForTools(what: string, accept: (tools: ListedTool[]) => boolean, timeoutMs = POLL_MS): Promise<ListedTool[]> {
  const deadline = Date.now() + timeoutMs
  let nudgeAt = Date.now() + 15_000
  let last: string = 'no answer yet'
  for (;;) {
    if (Date.now() > nudgeAt) {
      nudgeAt = Date.now() + 15_000
      await saveAgain()
    }
    try {
      const tools = await listFresh()
      if (accept(tools)) return tools
      last = JSON.stringify(tools)
    }
    catch (error) {
      last = error instanceof Error ? error.message : String(error)
    }
    if (!dev || dev.exitCode !== null || dev.signalCode !== null) throw new Error(`nuxi dev exited while waiting for ${what}:\n${log}`)
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}. Last tools/list: ${last}\n--- nuxi dev output ---\n${log}`)
    await new Promise(r => setTimeout(r, 500))
  }
}

function stopDev(): Promise<void> {
  const child = dev
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  const exited = new Promise<void>(r => child.once('exit', () => r()))
  // nuxi dev forks the Nuxt server: signal the whole process group it leads.
  process.kill(-child.pid, 'SIGTERM')
  const force = setTimeout(() => {
    if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL')
  }, 5000)
  return exited.finally(() => clearTimeout(force))
}

beforeAll(async () => {
  appDir = resolve(repoRoot, 'test/fixtures', `.tmp-dev-${randomBytes(4).toString('hex')}`)
  await cp(fixtureDir('dev'), appDir, { recursive: true, filter: source => !/[\\/](?:\.nuxt|\.output|node_modules)$/.test(source) })
  // An absolute module path: the copy must not depend on where it sits.
  await writeFile(join(appDir, 'nuxt.config.ts'), `export default defineNuxtConfig({
  modules: [${JSON.stringify(resolve(repoRoot, 'src/module'))}],
  compatibilityDate: '2026-11-01',
  devtools: { enabled: false },
  mcp: { name: 'dev-fixture' },
})
`)
  const port = await freePort()
  url = new URL(`http://127.0.0.1:${port}/mcp`)
  dev = spawn(process.execPath, [nuxi, 'dev', appDir, '--port', String(port), '--host', '127.0.0.1'], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: userEnv({ NUXT_TELEMETRY_DISABLED: '1' }),
  })
  dev.stdout?.on('data', (chunk: Buffer) => { log += chunk.toString() })
  dev.stderr?.on('data', (chunk: Buffer) => { log += chunk.toString() })
  dev.once('exit', (code, signal) => { log += `\n[nuxi dev exited: ${code ?? signal}]` })
  await waitForTools('the dev server to serve echo', tools => tools.some(tool => tool.name === 'echo'), 150_000)
}, 180_000)

afterAll(async () => {
  await stopDev()
  if (appDir) await rm(appDir, { recursive: true, force: true })
}, 30_000)

describe('nuxi dev picks up tool files without a restart', () => {
  const added = () => join(appDir, 'server/mcp/tools/added.ts')

  it('starts with only the fixture\'s tool', async () => {
    expect((await listFresh()).map(tool => tool.name)).toEqual(['echo'])
  })

  it('serves a tool file added while running', async () => {
    await writeFile(added(), toolFile('Added while running', 'first version'))
    const tools = await waitForTools('added_tool to appear', list => list.some(tool => tool.name === 'added_tool'))
    expect(tools.map(tool => tool.name).sort()).toEqual(['added_tool', 'echo'])
    expect(tools.find(tool => tool.name === 'added_tool')?.description).toBe('Added while running')
    expect(await callFresh('added_tool')).toBe('first version')
  }, 60_000)

  it('serves the new description and handler after an edit', async () => {
    await writeFile(added(), toolFile('Edited description', 'second version'))
    await waitForTools('the edited description', list => list.some(tool => tool.name === 'added_tool' && tool.description === 'Edited description'))
    expect(await callFresh('added_tool')).toBe('second version')
  }, 60_000)

  it('drops a tool whose file is removed', async () => {
    // Only meaningful if the tool is there to begin with.
    expect((await listFresh()).map(tool => tool.name)).toContain('added_tool')
    await unlink(added())
    const tools = await waitForTools('added_tool to disappear', list => !list.some(tool => tool.name === 'added_tool'))
    expect(tools.map(tool => tool.name)).toEqual(['echo'])
    await expect(callFresh('added_tool')).rejects.toThrow(/Unknown tool "added_tool"/)
  }, 60_000)
})
