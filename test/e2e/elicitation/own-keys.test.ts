import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, textOf } from '../../utils/clients'
import { postModern } from '../../utils/raw'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'

// once() keys, question keys and inputResponses keys are the user's and the client's strings:
// '__proto__', 'constructor', 'toString' must be plain keys, never Object.prototype properties.
let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('elicitation')
})
afterAll(async () => {
  await app?.stop()
})

const YES = { action: 'accept', content: { confirm: true } } as const

function call(extra: Record<string, unknown> = {}) {
  return postModern(app.url, 'tools/call', { name: 'ask_own_keys', arguments: {}, ...extra })
}

async function runs(): Promise<Record<string, number>> {
  const { message } = await postModern(app.url, 'tools/call', { name: 'runs', arguments: {} })
  return JSON.parse((message.result?.content as { text: string }[])[0]!.text)
}

describe('keys named like Object.prototype properties', () => {
  it('modern: asks under them, keeps once() results under them, and asks again when an answer is missing', async () => {
    const before = await runs()
    const first = await call()
    expect(Object.keys(first.message.result?.inputRequests as object)).toEqual(['constructor'])
    // A retry without the answer is asked again, not refused as malformed.
    const unanswered = await call({ requestState: first.message.result?.requestState, inputResponses: {} })
    expect(unanswered.message.error).toBeUndefined()
    expect(Object.keys(unanswered.message.result?.inputRequests as object)).toEqual(['constructor'])
    const second = await call({ requestState: unanswered.message.result?.requestState, inputResponses: { constructor: YES } })
    expect(Object.keys(second.message.result?.inputRequests as object)).toEqual(['hasOwnProperty'])
    const done = await call({ requestState: second.message.result?.requestState, inputResponses: { hasOwnProperty: YES } })
    expect(JSON.parse((done.message.result?.content as { text: string }[])[0]!.text)).toEqual({ stamp: { at: 'first round' }, proceed: true, step: 'ran', sure: true })
    const after = await runs()
    const ran = (key: string) => (after[key] ?? 0) - (before[key] ?? 0)
    expect(ran('ask_own_keys:__proto__')).toBe(1)
    expect(ran('ask_own_keys:toString')).toBe(1)
  })

  it('legacy: the same handler completes', async () => {
    const client = await connectLegacy(app.url, { answer: () => YES })
    expect(JSON.parse(textOf(await client.callTool({ name: 'ask_own_keys', arguments: {} })))).toEqual({ stamp: { at: 'first round' }, proceed: true, step: 'ran', sure: true })
    await client.close()
  })
})
