import { describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../../src/runtime/server/common/store/memory'
import { McpElicitationError } from '../../../src/runtime/server/elicitation/error'
import { runGuardedStep } from '../../../src/runtime/server/elicitation/replay-guard'

describe('runGuardedStep', () => {
  it('runs a step once per flow and key, and replays its value', async () => {
    const store = createMemoryStore()
    let runs = 0
    const step = async () => ({ n: ++runs })
    expect(await runGuardedStep(store, 'flow', 'charge', 60_000, step)).toEqual({ n: 1 })
    expect(await runGuardedStep(store, 'flow', 'charge', 60_000, step)).toEqual({ n: 1 })
    expect(await runGuardedStep(store, 'other-flow', 'charge', 60_000, step)).toEqual({ n: 2 })
  })

  it('replays a step\'s error without running it again', async () => {
    const store = createMemoryStore()
    let runs = 0
    const step = async () => {
      runs += 1
      throw new Error('card declined')
    }
    await expect(runGuardedStep(store, 'flow', 'charge', 60_000, step)).rejects.toThrow('card declined')
    await expect(runGuardedStep(store, 'flow', 'charge', 60_000, step)).rejects.toThrow('card declined')
    expect(runs).toBe(1)
  })

  it('does not run the step when the store cannot guard it (unavailable)', async () => {
    const store = createMemoryStore(0)
    let runs = 0
    const error = await runGuardedStep(store, 'flow', 'charge', 60_000, () => ++runs).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(McpElicitationError)
    expect(error).toMatchObject({ code: 'unavailable' })
    expect(runs).toBe(0)
  })
})
