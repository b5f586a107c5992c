import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'

// resources/subscribe (legacy sessions) stores what the client sends for as long as the session
// lives: only real resources, of bounded length, and a bounded number per session.
let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('basic')
})
afterAll(async () => {
  await app?.stop()
})

describe('resources/subscribe limits', () => {
  it('accepts a registered resource and a template match', async () => {
    const client = await connectLegacy(app.url)
    await expect(client.subscribeResource({ uri: 'config://app' })).resolves.toEqual({})
    await expect(client.subscribeResource({ uri: 'users://42/profile' })).resolves.toEqual({})
    await client.close()
  })

  it('refuses a URI that is no resource with -32602 naming it', async () => {
    const client = await connectLegacy(app.url)
    await expect(client.subscribeResource({ uri: 'nope://x' })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('nope://x') })
    await client.close()
  })

  it('refuses an over-long URI, even one a template matches, naming the limit', async () => {
    const client = await connectLegacy(app.url)
    const long = `users://${'a'.repeat(40_000)}/profile`
    await expect(client.subscribeResource({ uri: long })).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/2048 characters/) })
    await client.close()
  })

  it('refuses more than 100 subscriptions in one session, and serves on', async () => {
    const client = await connectLegacy(app.url)
    for (let i = 0; i < 100; i++) await client.subscribeResource({ uri: `users://${i}/profile` })
    await expect(client.subscribeResource({ uri: 'users://100/profile' })).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/100 subscriptions/) })
    // Re-subscribing to one it has is not a new subscription; unsubscribing makes room.
    await expect(client.subscribeResource({ uri: 'users://7/profile' })).resolves.toEqual({})
    await client.unsubscribeResource({ uri: 'users://7/profile' })
    await expect(client.subscribeResource({ uri: 'users://100/profile' })).resolves.toEqual({})
    expect((await client.listResources()).resources.length).toBeGreaterThan(0)
    await client.close()
  })
})
