import { describe, expect, it } from 'vitest'
import { isRunnerKilledTwice } from '../../../scripts/chaos/report.mjs'

// A task call that ran to its deadline counts as a hang (the invariant fails) unless the schedule
// explains it: its runner killed, then the instance that took it over killed too, during the call.

describe('the chaos run\'s explanation of a task that ran to its deadline', () => {
  const call = { kind: 'tasks-modern', at: 318_500, ms: 30_169 }

  it('explains a task started three times while the run killed two instances or more during it', () => {
    expect(isRunnerKilledTwice(call, 3, [320_800, 334_800, 346_100])).toBe(true)
    expect(isRunnerKilledTwice(call, 3, [300_000, 320_800, 334_800])).toBe(true)
  })

  it('leaves a hang when the task was taken over once only, or the kills fell outside the call', () => {
    expect(isRunnerKilledTwice(call, 2, [320_800, 334_800])).toBe(false)
    expect(isRunnerKilledTwice(call, 3, [320_800, 360_000])).toBe(false)
    expect(isRunnerKilledTwice(call, 4, [320_800, 334_800])).toBe(false)
  })

  it('never explains a call that is not a task', () => {
    expect(isRunnerKilledTwice({ ...call, kind: 'v1' }, 3, [320_800, 334_800, 346_100])).toBe(false)
  })
})
