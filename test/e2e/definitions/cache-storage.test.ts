import { existsSync, readdirSync, rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRuntime } from '../../../scripts/runtimes.mjs'
import type { RuntimeApp } from '../../../scripts/runtimes.mjs'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import { buildFixture, fixtureDir } from '../../utils/fixture'

/**
 * `mcp.cache.storage`: tools and resources keep cached results on the app's own Nitro storage
 * mount. Two instances of one build share an fs mount (as instances share a Redis or KV mount):
 * a result one instance kept is served by the other, and it is in the mount's folder.
 */

const SECRET = 'cache-storage-test-secret-0123456789abcdefghij'
const folder = resolve(fixtureDir('cache-storage'), '.data/mcp-cache')
let first: RuntimeApp
let second: RuntimeApp

beforeAll(async () => {
  await buildFixture('cache-storage', { reuse: true })
  // Entries of an earlier run would be served for ten minutes: every run starts empty.
  rmSync(folder, { recursive: true, force: true })
  const start = () => startRuntime({ target: 'node', root: fixtureDir('cache-storage'), env: { NUXT_MCP_STATE_SECRET: SECRET } })
  ;[first, second] = await Promise.all([start(), start()])
}, 300_000)
afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()])
})

async function callOn(app: RuntimeApp, era: 'legacy' | 'modern', key: string): Promise<string> {
  const client = era === 'legacy' ? await connectLegacy(app.url) : await connectModern(app.url)
  try {
    return textOf(await client.callTool({ name: 'cached_pid', arguments: { key } }))
  }
  finally {
    await client.close()
  }
}

async function readOn(app: RuntimeApp, uri: string): Promise<string> {
  const client = await connectModern(app.url)
  try {
    const [content] = (await client.readResource({ uri })).contents
    return content && 'text' in content ? content.text : ''
  }
  finally {
    await client.close()
  }
}

describe('cached results on a Nitro storage mount', () => {
  it('serves on one instance what the other kept, in both eras', async () => {
    for (const era of ['legacy', 'modern'] as const) {
      const key = `shared-${era}`
      expect(await callOn(first, era, key)).toBe(String(first.pid))
      expect(await callOn(second, era, key)).toBe(String(first.pid))
      // Other arguments are another entry: run where they are asked.
      expect(await callOn(second, era, `${key}-other`)).toBe(String(second.pid))
    }
    expect(await readOn(second, 'pid://board')).toBe(String(second.pid))
    expect(await readOn(first, 'pid://board')).toBe(String(second.pid))
  })

  it('keeps them as files of the mount, under hashed keys', () => {
    expect(existsSync(folder)).toBe(true)
    // (The fs driver turns the key's `:` into a folder.)
    const files = readdirSync(folder, { recursive: true }).map(String).filter(file => file !== 'nuxt-mcp-cache')
    expect(files.length).toBeGreaterThanOrEqual(5)
    expect(files.every(file => /^nuxt-mcp-cache\/[0-9a-f]{64}$/.test(file)), files.join(', ')).toBe(true)
  })
})
