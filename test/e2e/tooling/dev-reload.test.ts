import { mkdir, rm, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, textOf } from '../../utils/clients'
import { startDevApp } from '../../utils/dev-server'
import type { DevApp } from '../../utils/dev-server'

// `nuxi dev` on a throwaway copy of test/fixtures/dev: tool files added, edited and removed while
// it runs must show up in tools/list without a restart. The copy sits beside the fixtures so the
// app resolves `nuxt` and `zod` from the repo's node_modules like the other fixtures do.

interface ListedTool { name: string, description?: string }

/** How long one wait for a rebuild may take; a test that waits for two rebuilds gets room for both. */
const POLL_MS = 40_000
const ATTEMPT_MS = 8_000
let app: DevApp
let url: URL
let appDir: string

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
async function listFresh(at: URL = url): Promise<ListedTool[]> {
  const client = await connectLegacy(at, { connectTimeoutMs: ATTEMPT_MS })
  try {
    // Bounded, so a request stuck in the dev server fails this attempt instead of the whole test.
    return (await client.listTools(undefined, { timeout: ATTEMPT_MS })).tools
  }
  finally {
    await client.close().catch(() => {})
  }
}

async function callFresh(name: string): Promise<string> {
  const client = await connectLegacy(url, { connectTimeoutMs: ATTEMPT_MS })
  try {
    return textOf(await client.callTool({ name, arguments: {} }, undefined, { timeout: ATTEMPT_MS }))
  }
  finally {
    await client.close().catch(() => {})
  }
}

/** Polls tools/list until `accept` holds, or fails with the last list and the dev server log. */
async function waitForTools(what: string, accept: (tools: ListedTool[]) => boolean, timeoutMs = POLL_MS, at: URL = url): Promise<ListedTool[]> {
  const deadline = Date.now() + timeoutMs
  let last: string = 'no answer yet'
  for (;;) {
    try {
      const tools = await listFresh(at)
      if (accept(tools)) return tools
      last = JSON.stringify(tools)
    }
    catch (error) {
      last = error instanceof Error ? error.message : String(error)
    }
    if (!app.alive()) throw new Error(`nuxi dev exited while waiting for ${what}:\n${app.log()}`)
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}. Last tools/list: ${last}\n--- nuxi dev output ---\n${app.log()}`)
    await new Promise(r => setTimeout(r, 500))
  }
}

beforeAll(async () => {
  // A second endpoint from the start (server/mcp/billing/): the banner gives it configs of its own.
  app = await startDevApp({ 'server/mcp/billing/tools/invoice.ts': `export default defineMcpTool({ description: 'Invoices', handler: () => 'invoiced' })\n` })
  url = app.url
  appDir = app.dir
  await waitForTools('the dev server to serve echo', tools => tools.some(tool => tool.name === 'echo'), 150_000)
}, 180_000)

afterAll(() => app?.stop(), 30_000)

describe('nuxi dev picks up tool files without a restart', () => {
  const added = () => join(appDir, 'server/mcp/tools/added.ts')

  it('starts with only the fixture\'s tool', async () => {
    expect((await listFresh()).map(tool => tool.name)).toEqual(['echo'])
  })

  it('prints client configs for every endpoint, each under its own server name', () => {
    expect(app.log()).toMatch(/claude mcp add --transport http dev-fixture http:\/\/\S+\/mcp\n/)
    expect(app.log()).toMatch(/MCP endpoint: http:\/\/\S+\/mcp\/billing \(1 tool, 0 resources, 0 prompts\)/)
    expect(app.log()).toMatch(/claude mcp add --transport http dev-fixture-billing http:\/\/\S+\/mcp\/billing/)
  })

  it('serves a tool file added while running', async () => {
    await writeFile(added(), toolFile('Added while running', 'first version'))
    const tools = await waitForTools('added_tool to appear', list => list.some(tool => tool.name === 'added_tool'))
    expect(tools.map(tool => tool.name).sort()).toEqual(['added_tool', 'echo'])
    expect(tools.find(tool => tool.name === 'added_tool')?.description).toBe('Added while running')
    expect(await callFresh('added_tool')).toBe('first version')
    // The console says so too: the endpoint line again, with the new count.
    expect(app.log()).toMatch(/MCP endpoint: http:\/\/\S+\/mcp \(2 tools, 0 resources, 0 prompts\)/)
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

  it('serves an edit saved while the rebuild for a new file is still running', async () => {
    await writeFile(added(), toolFile('Racing first save', 'racing v1'))
    await new Promise(r => setTimeout(r, 150))
    await writeFile(added(), toolFile('Racing second save', 'racing v2'))
    await waitForTools('the second save', list => list.some(tool => tool.name === 'added_tool' && tool.description === 'Racing second save'))
    expect(await callFresh('added_tool')).toBe('racing v2')
    await unlink(added())
    await waitForTools('added_tool to disappear', list => !list.some(tool => tool.name === 'added_tool'))
  }, 2 * POLL_MS + 20_000)

  it('serves a prompt from a prompts folder created while running', async () => {
    const prompts = join(appDir, 'server/mcp/prompts')
    await mkdir(prompts, { recursive: true })
    await writeFile(join(prompts, 'greet.ts'), `export default defineMcpPrompt({
  description: 'Says hello',
  handler: () => 'Hello from a new folder',
})
`)
    const deadline = Date.now() + POLL_MS
    let names: string[] = []
    while (Date.now() < deadline) {
      const client = await connectLegacy(url, { connectTimeoutMs: ATTEMPT_MS }).catch(() => undefined)
      names = client ? (await client.listPrompts(undefined, { timeout: ATTEMPT_MS }).catch(() => ({ prompts: [] }))).prompts.map(prompt => prompt.name) : []
      await client?.close().catch(() => {})
      if (names.includes('greet')) break
      await new Promise(r => setTimeout(r, 500))
    }
    expect(names, app.log()).toContain('greet')
  }, 60_000)

  it('serves a new endpoint folder by restarting Nuxt in place, and stops serving it when the folder goes', async () => {
    const admin = new URL('/mcp/admin', url)
    await mkdir(join(appDir, 'server/mcp/admin/tools'), { recursive: true })
    await writeFile(join(appDir, 'server/mcp/admin/tools/audit.ts'), `export default defineMcpTool({ description: 'Audits', handler: () => 'audited' })\n`)
    await waitForTools('/mcp/admin to serve audit', tools => tools.some(tool => tool.name === 'audit'), 2 * POLL_MS, admin)
    expect(app.log()).toMatch(/server\/mcp\/admin\/ is a new endpoint folder: restarting Nuxt to serve it at \/mcp\/admin/)
    await rm(join(appDir, 'server/mcp/admin'), { recursive: true, force: true })
    // Gone: the route is no longer registered, and Nuxt's renderer answers the POST with its page.
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } }
    const deadline = Date.now() + 2 * POLL_MS
    let last = 'no answer yet'
    while (Date.now() < deadline) {
      const response = await fetch(admin, { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream' }, body: JSON.stringify(initialize), signal: AbortSignal.timeout(ATTEMPT_MS) }).catch(() => undefined)
      last = response ? `${response.status} ${response.headers.get('content-type')}` : 'no answer'
      await response?.body?.cancel()
      if (response?.headers.get('content-type')?.startsWith('text/html')) break
      await new Promise(r => setTimeout(r, 500))
    }
    expect(last, app.log()).toMatch(/^\d+ text\/html/)
    expect(app.log()).toMatch(/server\/mcp\/admin\/ is gone: restarting Nuxt to stop serving \/mcp\/admin/)
    await waitForTools('the default endpoint after the restarts', tools => tools.some(tool => tool.name === 'echo'))
  }, 5 * POLL_MS)

  it('warns on reload about a tool added without a description, as a build does', async () => {
    const bare = join(appDir, 'server/mcp/tools/bare.ts')
    await writeFile(bare, `export default defineMcpTool({ handler: () => 'no description' })\n`)
    await waitForTools('bare to appear', list => list.some(tool => tool.name === 'bare'))
    const deadline = Date.now() + 10_000
    // (The console renders the warning's `code` spans without their backticks.)
    const warning = /server\/mcp\/tools\/bare\.ts: the tool "bare" has no `?description`?/
    while (!warning.test(app.log()) && Date.now() < deadline) await new Promise(r => setTimeout(r, 200))
    expect(app.log()).toMatch(warning)
    expect(app.log()).toMatch(/MCP endpoint: http:\/\/\S+\/mcp \(2 tools, 0 resources, 1 prompt\)/)
    await unlink(bare)
    await waitForTools('bare to disappear', list => !list.some(tool => tool.name === 'bare'))
  }, 2 * POLL_MS + 20_000)
})
