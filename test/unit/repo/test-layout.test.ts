import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DURATIONS, OWN_BUILDS } from '../../sequencer'
import { repoRoot } from '../../utils/fixture'

// The run's layout names test files by path (test/sequencer.ts): a file moved or renamed without
// them would silently wait for fixtures it does not use, or run last however long it takes.
describe('the test run\'s layout', () => {
  it('names only test files that exist among the files that build their own apps', () => {
    expect(OWN_BUILDS.filter(path => !existsSync(resolve(repoRoot, path)))).toEqual([])
  })

  it('times only test files that exist (test/durations.json)', () => {
    const timed = Object.keys(JSON.parse(readFileSync(DURATIONS, 'utf8')) as Record<string, number>)
    expect(timed.length).toBeGreaterThan(100)
    expect(timed.filter(path => !existsSync(resolve(repoRoot, path)))).toEqual([])
  })
})
