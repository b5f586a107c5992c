import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postModern, runsOf } from '../../utils/raw'
import { textOf } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'

// once() across modern rounds: a step first run in round k is recorded in the state issued at the
// end of round k, but the state the client sent in round k stays valid. Re-sending round k (a
// replay, or an honest retry after a lost response) must not run the step again.
let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('elicitation', { NUXT_MCP_STATE_SECRET: 'replay-guard-test-secret-of-enough-length' })
})
afterAll(async () => {
  await app?.stop()
})

const YES = { action: 'accept', content: { confirm: true } }

function call(label: string, extra: Record<string, unknown> = {}) {
  return postModern(app.url, 'tools/call', { name: 'ask_charge', arguments: { label }, ...extra })
}

/** How often ask_charge's once() step ran under `label`. */
function charges(label: string): Promise<number> {
  return runsOf(app, `ask_charge:${label}`)
}

describe('the replay guard', () => {
  it('runs a step once when the round that ran it is sent again, and gives the replay the same outcome', async () => {
    const first = await call('replayed')
    const s1 = String(first.message.result?.requestState)
    const second = await call('replayed', { requestState: s1, inputResponses: { a: YES } })
    expect(Object.keys(second.message.result?.inputRequests as object)).toEqual(['b'])
    expect(await charges('replayed')).toBe(1)
    // The same round again: the step's recorded result, the same next question, no second charge.
    const replay = await call('replayed', { requestState: s1, inputResponses: { a: YES } })
    expect(Object.keys(replay.message.result?.inputRequests as object)).toEqual(['b'])
    expect(await charges('replayed')).toBe(1)
    const done = await call('replayed', { requestState: String(replay.message.result?.requestState), inputResponses: { b: YES } })
    expect(textOf(done.message.result)).toBe('charged r-replayed, shipped')
    expect(await charges('replayed')).toBe(1)
  })

  it('runs a step once when the same round arrives several times at once', async () => {
    const first = await call('concurrent')
    const s1 = String(first.message.result?.requestState)
    const rounds = await Promise.all(Array.from({ length: 5 }, () => call('concurrent', { requestState: s1, inputResponses: { a: YES } })))
    for (const round of rounds) expect(Object.keys(round.message.result?.inputRequests as object)).toEqual(['b'])
    expect(await charges('concurrent')).toBe(1)
  })
})
