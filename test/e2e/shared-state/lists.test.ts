import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import { useCluster } from '../../utils/cluster'
import { until } from '../../utils/until'

// notifyMcpListChanged() raised on either instance reaches each client once, whichever instance
// holds its GET stream (legacy) or its subscriptions/listen stream (2026-07-28); and
// useMcpSession() values hold on every instance that serves the session.
const cluster = useCluster('shared-state', 2)

/** Raises a tools list change on each instance in turn. */
async function changeOnEach(): Promise<void> {
  for (const instance of cluster().instances) await fetch(new URL('/list-changed', instance.url))
}

describe('list changes across instances, through Redis', () => {
  it('a legacy session (v1 Client) hears each change once, from whichever instance raised it', async () => {
    const client = await connectLegacy(cluster().url)
    let changes = 0
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => { changes += 1 })
    // Let both instances set the session up, and the GET stream open on one of them.
    for (let i = 0; i < 4; i++) await client.listTools()
    await changeOnEach()
    await until(() => changes === 2, 'two tools/list_changed')
    await new Promise(resolve => setTimeout(resolve, 300))
    expect(changes).toBe(2)
    await client.close()
  })

  it('a 2026-07-28 listener (v2 Client) hears each change once, from whichever instance raised it', async () => {
    const client = await connectModern(cluster().url)
    let changes = 0
    client.setNotificationHandler('notifications/tools/list_changed', () => { changes += 1 })
    const subscription = await client.listen({ toolsListChanged: true })
    await changeOnEach()
    await until(() => changes === 2, 'two tools/list_changed on subscriptions/listen')
    await new Promise(resolve => setTimeout(resolve, 300))
    expect(changes).toBe(2)
    await subscription.close()
    await client.close()
  })

  it('useMcpSession() values hold on every instance that serves the session, apart from another session', async () => {
    const client = await connectLegacy(cluster().url)
    const other = await connectLegacy(cluster().url)
    const results: string[] = []
    // Round-robin: the calls alternate between the two instances.
    for (const item of ['a', 'b', 'c', 'd']) results.push(textOf(await client.callTool({ name: 'cart_add', arguments: { item } })))
    expect(results).toEqual(['a', 'a,b', 'a,b,c', 'a,b,c,d'])
    expect(textOf(await other.callTool({ name: 'cart_add', arguments: { item: 'z' } }))).toBe('z')
    await client.close()
    await other.close()
  })

  it('useMcpSession() holds at most 100 keys, also when two instances set new keys at once', async () => {
    const client = await connectLegacy(cluster().url)
    // Two calls at once: round-robin sends them to the two instances.
    const fill = async (prefix: string) => JSON.parse(textOf(await client.callTool({ name: 'fill_session', arguments: { count: 60, prefix } }))) as { held: number, refused: number }
    const [first, second] = await Promise.all([fill('a'), fill('b')])
    expect(first.refused + second.refused).toBe(20)
    expect(await fill('c')).toEqual({ held: 100, refused: 60 })
    await client.close()
  })
})

describe('a second endpoint across instances (/mcp/second)', () => {
  it('a change raised on an instance that has served no request there yet reaches a session held by the other', async () => {
    // Straight to each instance, past nginx: the session lives on the first; the second has never
    // served /mcp/second (its endpoint was made at startup).
    const [held, idle] = cluster().instances
    const client = await connectLegacy(new URL('/mcp/second', held!.url))
    let changes = 0
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => { changes += 1 })
    await client.listTools()
    await new Promise(resolve => setTimeout(resolve, 300))
    await fetch(new URL('/list-changed?endpoint=/mcp/second', idle!.url))
    await until(() => changes === 1, 'tools/list_changed raised on the idle instance')
    await client.close()
  })

  it('its legacy session is served by both instances, with its own values, and hears the changes sent to it', async () => {
    const second = new URL('/mcp/second', cluster().url)
    const client = await connectLegacy(second)
    let changes = 0
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => { changes += 1 })
    const served: string[] = []
    for (const add of [1, 2, 3, 4]) served.push(textOf(await client.callTool({ name: 'tally', arguments: { add } })))
    expect(served.map(line => line.split(' ')[0])).toEqual(['1', '3', '6', '10'])
    // Round-robin: both instances served the session.
    expect(new Set(served.map(line => line.split(' ')[1])).size).toBe(2)
    expect((await client.listTools()).tools.map(tool => tool.name)).toEqual(['tally'])
    // A change for the first endpoint only does not reach it; one for it does, from either instance.
    for (const instance of cluster().instances) await fetch(new URL('/list-changed?endpoint=/mcp', instance.url))
    for (const instance of cluster().instances) await fetch(new URL('/list-changed?endpoint=/mcp/second', instance.url))
    await until(() => changes === 2, 'two tools/list_changed on /mcp/second')
    await new Promise(resolve => setTimeout(resolve, 300))
    expect(changes).toBe(2)
    await client.close()
  })
})

describe('cached tool results across instances, through Redis', () => {
  it('a result one instance kept is served by the other, which does not run the tool', async () => {
    const [first, second] = cluster().instances
    const ask = async (url: URL, key: string) => {
      const client = await connectModern(url)
      try {
        return textOf(await client.callTool({ name: 'cached_pid', arguments: { key } }))
      }
      finally {
        await client.close()
      }
    }
    const key = `k-${Date.now()}`
    const ranOn = await ask(new URL('/mcp', first!.origin), key)
    expect(await ask(new URL('/mcp', second!.origin), key)).toBe(ranOn)
    // Other arguments are another entry: the second instance runs it itself.
    expect(await ask(new URL('/mcp', second!.origin), `${key}-other`)).not.toBe(ranOn)
  })
})

