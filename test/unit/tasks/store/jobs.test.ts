import { describe, expect, it } from 'vitest'
import { JobBindings } from '../../../../src/runtime/server/tasks/store/jobs'

// The job bindings in one process (the shared state's are tested with Redis in
// test/e2e/shared-state/jobs.test.ts): one claim per binding, tied to its task, ended by its holder only.

describe('job bindings', () => {
  it('give a binding to one claim at a time: of concurrent claims exactly one wins', async () => {
    const jobs = new JobBindings()
    const claims = await Promise.all([jobs.claim('b', 60_000), jobs.claim('b', 60_000), jobs.claim('b', 60_000)])
    expect(claims.filter(claim => claim.claimed)).toHaveLength(1)
    const winner = claims.find(claim => claim.claimed)
    for (const claim of claims.filter(claim => !claim.claimed)) {
      expect(claim).toEqual({ claimed: false, held: { token: winner?.claimed ? winner.token : '', taskId: undefined } })
    }
  })

  it('tie the claim to its task, which a later claim reads', async () => {
    const jobs = new JobBindings()
    const first = await jobs.claim('b', 60_000)
    if (!first.claimed) throw new Error('the first claim must win')
    expect(await jobs.bind('b', first.token, 'task-1', 60_000)).toBe(true)
    expect(await jobs.claim('b', 60_000)).toEqual({ claimed: false, held: { token: first.token, taskId: 'task-1' } })
  })

  it('end only by their holder: an earlier job\'s end never frees a later call\'s claim', async () => {
    const jobs = new JobBindings()
    const first = await jobs.claim('b', 60_000)
    if (!first.claimed) throw new Error('the first claim must win')
    await jobs.end('b', 'someone else')
    expect(await jobs.read('b')).toEqual({ token: first.token, taskId: undefined })
    await jobs.end('b', first.token)
    expect(await jobs.read('b')).toBeUndefined()
    const second = await jobs.claim('b', 60_000)
    expect(second.claimed).toBe(true)
    await jobs.end('b', first.token)
    expect((await jobs.read('b'))?.token).toBe(second.claimed ? second.token : '')
  })

  it('cannot be bound by a lost claim', async () => {
    const jobs = new JobBindings()
    const first = await jobs.claim('b', 60_000)
    if (!first.claimed) throw new Error('the first claim must win')
    expect(await jobs.bind('b', 'another token', 'task-2', 60_000)).toBe(false)
    expect(await jobs.read('b')).toEqual({ token: first.token, taskId: undefined })
  })

  it('keep separate bindings apart', async () => {
    const jobs = new JobBindings()
    expect((await jobs.claim('a', 60_000)).claimed).toBe(true)
    expect((await jobs.claim('b', 60_000)).claimed).toBe(true)
  })
})
