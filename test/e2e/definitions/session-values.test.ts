import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'

// useMcpSession(): values kept across the calls of one legacy session, invisible to another, and
// refused on 2026-07-28, which has no session. (Across instances: shared-state/lists.test.ts.)
let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('guards')
})
afterAll(async () => {
  await app?.stop()
})

describe('useMcpSession()', () => {
  it('keeps values across the calls of one legacy session, apart from another session', async () => {
    const first = await connectLegacy(app.url)
    const second = await connectLegacy(app.url)
    expect(textOf(await first.callTool({ name: 'cart_add', arguments: { item: 'apple' } }))).toBe('apple')
    expect(textOf(await second.callTool({ name: 'cart_add', arguments: { item: 'kiwi' } }))).toBe('kiwi')
    expect(textOf(await first.callTool({ name: 'cart_add', arguments: { item: 'pear' } }))).toBe('apple,pear')
    await first.close()
    await second.close()
  })

  it('a new session of the same caller starts empty', async () => {
    const client = await connectLegacy(app.url)
    expect(textOf(await client.callTool({ name: 'cart_add', arguments: { item: 'fig' } }))).toBe('fig')
    await client.close()
  })

  it('holds at most 100 keys, also when sets of new keys race each other', async () => {
    const client = await connectLegacy(app.url)
    const filled = await client.callTool({ name: 'fill_session', arguments: { count: 120 } })
    expect(JSON.parse(textOf(filled))).toEqual({ held: 100, refused: 20 })
    await client.close()
  })

  it('says on 2026-07-28 that there is no session, instead of guessing one', async () => {
    const client = await connectModern(app.url)
    const result = await client.callTool({ name: 'cart_add', arguments: { item: 'plum' } })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/this 2026-07-28 request has no session/)
    await client.close()
  })
})
