import { describe, expect, it } from 'vitest'
import { isRunnerKilledTwice } from '../../../scripts/chaos/report.mjs'

// A task call that ran to its deadline counts as a hang (the invariant fails) unless the schedule
// explains it: its runner killed, then the instance that took it over killed too, during the call.

describe('the chaos run\'s explanation of a task that ran to its deadline', () => {
  const call = { kind: 'tasks-modern', at: 318_500, ms: 30_169 }

  it('explains a task started in three processes, the first two killed during the call', () => {
    expect(isRunnerKilledTwice(call, [101, 202, 303], [{ at: 320_800, pid: 101 }, { at: 334_800, pid: 202 }])).toBe(true)
    // The third one killed too (the call's last start died with it): still explained.
    expect(isRunnerKilledTwice(call, [101, 202, 303], [{ at: 320_800, pid: 101 }, { at: 334_800, pid: 202 }, { at: 346_100, pid: 303 }])).toBe(true)
  })

  it('leaves a hang when the kills were of other instances, or outside the call', () => {
    expect(isRunnerKilledTwice(call, [101, 202, 303], [{ at: 320_800, pid: 101 }, { at: 334_800, pid: 999 }])).toBe(false)
    expect(isRunnerKilledTwice(call, [101, 202, 303], [{ at: 320_800, pid: 101 }, { at: 360_000, pid: 202 }])).toBe(false)
  })

  it('leaves a hang when the task was taken over once only', () => {
    expect(isRunnerKilledTwice(call, [101, 202], [{ at: 320_800, pid: 101 }, { at: 334_800, pid: 202 }])).toBe(false)
  })

  it('never explains a call that is not a task', () => {
    expect(isRunnerKilledTwice({ ...call, kind: 'v1' }, [101, 202, 303], [{ at: 320_800, pid: 101 }, { at: 334_800, pid: 202 }])).toBe(false)
  })
})
