import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, connectModern } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import { until } from '../../utils/until'
import type { RunningFixture } from '../../utils/fixture'

// notifyMcpListChanged(): legacy sessions hear it on their GET stream, 2026-07-28 clients on
// subscriptions/listen; a guard's new answer shows on the next list. (Across instances:
// shared-state/round-robin.test.ts.) The guards fixture advertises listChanged because it has guards.
let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('guards')
})
afterAll(async () => {
  await fetch(new URL('/flip?on=0', app.url))
  await app?.stop()
})

async function flip(on: boolean): Promise<void> {
  expect(await (await fetch(new URL(`/flip?on=${on ? 1 : 0}`, app.url))).json()).toEqual({ beta: on })
}

describe('list changes', () => {
  it('advertises listChanged where a definition has a guard', async () => {
    const client = await connectLegacy(app.url)
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true })
    expect(client.getServerCapabilities()?.prompts).toEqual({ listChanged: true })
    await client.close()
  })

  it('legacy (v1 Client): notifications/tools/list_changed on the GET stream, and the new list after it', async () => {
    const client = await connectLegacy(app.url)
    let changes = 0
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => { changes += 1 })
    expect((await client.listTools()).tools.map(tool => tool.name)).not.toContain('beta_tool')
    // The v1 Client opens its GET stream after initialize, without waiting: give it a moment.
    await new Promise(resolve => setTimeout(resolve, 300))
    await flip(true)
    await until(() => changes === 1, 'tools/list_changed')
    expect((await client.listTools()).tools.map(tool => tool.name)).toContain('beta_tool')
    await flip(false)
    await until(() => changes === 2, 'second tools/list_changed')
    expect(changes).toBe(2)
    await client.close()
  })

  it('2026-07-28 (v2 Client): the change arrives on subscriptions/listen', async () => {
    const client = await connectModern(app.url)
    let changes = 0
    client.setNotificationHandler('notifications/tools/list_changed', () => { changes += 1 })
    const subscription = await client.listen({ toolsListChanged: true })
    expect(subscription.honoredFilter).toMatchObject({ toolsListChanged: true })
    await flip(true)
    await until(() => changes === 1, 'tools/list_changed on subscriptions/listen')
    expect((await client.listTools()).tools.map(tool => tool.name)).toContain('beta_tool')
    await flip(false)
    await subscription.close()
    await client.close()
  })
})
