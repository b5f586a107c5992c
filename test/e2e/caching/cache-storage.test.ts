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
 * a result one instance kept is served by the other, and it is in the mount's folder. A third,
 * with no `mcp:auth` hook, tells at its first request that its per-caller cache keeps nothing,
 * and that the byte budgets it was given do not apply to a storage mount.
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
  // A caller with a principal: a per-caller entry is kept for callers with one only.
  const options = { requestInit: { headers: { 'x-user': 'ada' } } }
  const client = era === 'legacy' ? await connectLegacy(app.url, options) : await connectModern(app.url, options)
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

describe('an instance with a per-caller cache and no way to know its callers', () => {
  it('warns once, at its first request, naming the endpoint and the tool (not the shared resource), and that the byte budgets are not counted here', async () => {
    const lone = await startRuntime({ target: 'node', root: fixtureDir('cache-storage'), env: { NUXT_MCP_STATE_SECRET: SECRET, CACHE_TEST_NO_AUTH: '1', NUXT_MCP_CACHE_MAX_BYTES: '1048576' } })
    try {
      const key = 'anonymous'
      expect(await callOn(lone, 'modern', key)).toBe(String(lone.pid))
      // Its caller has no principal here (no hook): the per-caller entry is neither kept nor read.
      expect(await callOn(lone, 'modern', key)).toBe(String(lone.pid))
      const warnings = lone.output().split('\n').filter(line => line.includes('keeps results per caller'))
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toMatch(/The MCP endpoint \/mcp keeps results per caller .* "cached_pid" \(.*cached-pid\.ts\), but has neither mcp\.auth nor an mcp:auth hook/)
      expect(warnings[0]).not.toContain('"pid" (')
      expect(lone.output()).toMatch(/mcp\.cache\.maxBytes and mcp\.cache\.maxBytesPerCaller are not counted on a Nitro storage mount/)
    }
    finally {
      await lone.stop()
    }
  })
})
