import { beforeAll, describe, expect, it } from 'vitest'
import { runChaos } from '../../../scripts/chaos/run.mjs'
import { builtFixture, repoRoot } from '../../utils/fixture'

// The short chaos run (`npm run chaos` runs it for 10 minutes with a fresh seed): three instances
// behind nginx, Redis with its append-only file, v1, v2 (legacy and 2026-07-28), mcp-remote,
// 2026-07-28 task (ext-tasks) and 2025-11-25 task (v1 Client) clients calling an eliciting tool with a once() step, while instances are SIGKILLed on the
// schedule seed 28 draws and Redis restarts once. Every invariant must hold.
const SEED = 28

// runChaos serves the shared-state fixture's build from the repository: built from today's sources first.
beforeAll(async () => {
  await builtFixture('shared-state')
})

describe('the chaos run, 60 s with a fixed seed', () => {
  it('keeps every invariant while instances are killed and Redis restarts', async () => {
    const lines: string[] = []
    const run = await runChaos({ root: repoRoot, seconds: 60, seed: SEED, log: line => lines.push(line) })
    console.log(`${lines.join('\n')}\n\n${run.report}`)
    expect(run.rows.filter(row => !row.ok).map(row => `${row.name}: ${row.figure}`)).toEqual([])
    expect(run.calls.filter(call => call.ok).length).toBeGreaterThan(100)
  }, 180_000)
})
