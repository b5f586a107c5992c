// The getting-started path in `nuxi dev`: the module is added to an app that has no server/mcp
// folder yet, and the first tool file created while the dev server runs must be served without
// a restart.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy } from '../../utils/clients'
import { startDevApp } from '../../utils/dev-server'
import type { DevApp } from '../../utils/dev-server'

const ATTEMPT_MS = 8_000
let app: DevApp

/** tools/list from a fresh client, or the error text (during a rebuild requests may fail). */
async function listNames(): Promise<string[] | string> {
  try {
    const client = await connectLegacy(app.url, { connectTimeoutMs: ATTEMPT_MS })
    try {
      return (await client.listTools(undefined, { timeout: ATTEMPT_MS })).tools.map(tool => tool.name)
    }
    finally {
      await client.close().catch(() => {})
    }
  }
  catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

async function waitForNames(what: string, accept: (names: string[]) => boolean, timeoutMs: number): Promise<string[]> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const names = await listNames()
    if (Array.isArray(names) && accept(names)) return names
    if (!app.alive() || Date.now() > deadline) throw new Error(`Waiting for ${what}; last answer: ${JSON.stringify(names)}\n--- nuxi dev output ---\n${app.log()}`)
    await new Promise(r => setTimeout(r, 500))
  }
}

beforeAll(async () => {
  app = await startDevApp({ 'server/mcp': null })
  await waitForNames('the dev server to answer with no tools', names => names.length === 0, 150_000)
}, 180_000)

afterAll(() => app?.stop(), 30_000)

describe('nuxi dev on an app without server/mcp yet', () => {
  it('serves the first tool file created while running', async () => {
    await mkdir(join(app.dir, 'server/mcp/tools'), { recursive: true })
    await writeFile(join(app.dir, 'server/mcp/tools/hello.ts'), `export default defineMcpTool({
  description: 'Says hello',
  handler: () => 'hello',
})
`)
    expect(await waitForNames('hello to appear', names => names.includes('hello'), 40_000)).toEqual(['hello'])
  }, 60_000)
})
