import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import type { Answerer } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'

/** A tool's `cache`: results served again per caller and arguments; errors and asking calls never kept. */

let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('elicitation')
})
afterAll(async () => {
  await app?.stop()
})

async function quote(era: 'legacy' | 'modern', principal: string, args: Record<string, unknown>, answer?: Answerer) {
  const options = { answer, requestInit: { headers: { 'x-user': principal } } }
  const client = era === 'legacy' ? await connectLegacy(app.url, options) : await connectModern(app.url, options)
  try {
    return await client.callTool({ name: 'cached_quote', arguments: args })
  }
  finally {
    await client.close()
  }
}

describe.each(['legacy', 'modern'] as const)('%s era', (era) => {
  it('serves a result again for the same caller and arguments, and runs for another caller or other arguments', async () => {
    const item = `${era}-lamp`
    expect(textOf(await quote(era, 'ada', { item }))).toBe(`quote for ${item}: run 1`)
    expect(textOf(await quote(era, 'ada', { item }))).toBe(`quote for ${item}: run 1`)
    // Another caller has entries of their own: one person's result never reaches another.
    expect(textOf(await quote(era, 'bob', { item }))).toBe(`quote for ${item}: run 2`)
    // The same arguments written in another order are the same key; other arguments are not.
    expect(textOf(await quote(era, 'ada', { ask: false, item }))).toBe(`quote for ${item}: run 1`)
    expect(textOf(await quote(era, 'ada', { item: `${item}-2` }))).toBe(`quote for ${item}-2: run 1`)
  })

  it('never keeps an error result, nor a call that asked the person', async () => {
    const broken = `${era}-broken`
    for (let i = 0; i < 2; i++) expect((await quote(era, 'ada', { item: broken, fail: true })).isError).toBe(true)
    const asked = `${era}-asked`
    const yes: Answerer = () => ({ action: 'accept', content: { confirm: true } })
    expect(textOf(await quote(era, 'ada', { item: asked, ask: true }, yes))).toMatch(new RegExp(`^quote for ${asked}: run \\d+$`))
    const second = textOf(await quote(era, 'ada', { item: asked, ask: true }, yes))
    const runs = JSON.parse(textOf(await (era === 'legacy' ? connectLegacy(app.url) : connectModern(app.url)).then(async (client) => {
      try {
        return await client.callTool({ name: 'runs', arguments: {} })
      }
      finally {
        await client.close()
      }
    })))
    expect(runs[`cached_quote:${broken}`]).toBe(2)
    // Legacy runs the asking handler once per call; modern once per round (two rounds a call).
    expect(runs[`cached_quote:${asked}`]).toBe(era === 'legacy' ? 2 : 4)
    expect(second).toBe(`quote for ${asked}: run ${era === 'legacy' ? 2 : 4}`)
  })
})
