import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postModern } from '../../utils/raw'
import { textOf } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'

// Modern sampling and roots answers arrive in inputResponses, unvalidated by the SDK: they are
// checked against the spec's result schemas, as the legacy path's SDK does.
let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('elicitation')
})
afterAll(async () => {
  await app?.stop()
})

const capabilities = { sampling: {}, roots: {} }
const SAMPLED = { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'test-model' }
const ROOTS = { roots: [{ uri: 'file:///work', name: 'work' }] }

async function flow(sample: unknown, roots: unknown) {
  const first = await postModern(app.url, 'tools/call', { name: 'ask_model', arguments: {} }, { capabilities })
  const afterSample = await postModern(app.url, 'tools/call', { name: 'ask_model', arguments: {}, requestState: first.message.result?.requestState, inputResponses: { sample } }, { capabilities })
  if (!afterSample.message.result) return afterSample
  return postModern(app.url, 'tools/call', { name: 'ask_model', arguments: {}, requestState: afterSample.message.result.requestState, inputResponses: { roots } }, { capabilities })
}

describe('modern sampling and roots answers', () => {
  it('accepts valid answers, a sampling result with a content array too (2025-11-25, 2026-07-28)', async () => {
    const single = await flow(SAMPLED, ROOTS)
    expect(JSON.parse(textOf(single.message.result))).toEqual({ content: SAMPLED.content, roots: ['file:///work'] })
    const list = await flow({ ...SAMPLED, content: [{ type: 'text', text: 'hi' }, { type: 'text', text: 'there' }] }, ROOTS)
    expect(JSON.parse(textOf(list.message.result)).content).toHaveLength(2)
  })

  it('refuses a sampling answer that is not a sampling result with -32602 naming what is wrong', async () => {
    const { message } = await flow({ role: 'assistant', content: { type: 'text' }, model: 'm' }, ROOTS)
    expect(message.error?.code).toBe(-32602)
    expect(message.error?.message).toMatch(/inputResponses\["sample"\].*content/)
  })

  it('refuses roots that are not roots with -32602', async () => {
    const { message } = await flow(SAMPLED, { roots: [1] })
    expect(message.error?.code).toBe(-32602)
    expect(message.error?.message).toMatch(/inputResponses\["roots"\].*roots/)
  })
})
