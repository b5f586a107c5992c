import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { fixtureDir, repoRoot } from '../../utils/fixture'

const run = promisify(execFile)

describe('a state secret in nuxt.config', () => {
  // `nuxi prepare` runs the module's setup as a build does, without bundling.
  it('is warned about when the app is prepared or built, naming the variable to use instead', async () => {
    const { stdout, stderr } = await run(process.execPath, [resolve(repoRoot, 'node_modules/@nuxt/cli/bin/nuxi.mjs'), 'prepare', fixtureDir('baked-secret')], { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 })
    const output = `${stdout}\n${stderr}`
    expect(output).toMatch(/runtimeConfig\.mcp\.stateSecret is set in nuxt\.config: it is baked into \.output/)
    expect(output).toContain('NUXT_MCP_STATE_SECRET')
  }, 120_000)
})
