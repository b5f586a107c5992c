import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { SESSION_TAG } from '../../utils/traces'
import { until } from '../../utils/until'

/** useMcpLogger(): the client's channel (`notifications/message`), the server's (JSON lines), and both. */

let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('elicitation')
})
afterAll(async () => {
  await app?.stop()
})

/** The server's `[mcp]` lines written for `tenant`. */
function serverLines(tenant: string): Record<string, unknown>[] {
  return app.output().split('\n').flatMap((line) => {
    const json = /\[mcp\] (\{.*\})\s*$/.exec(line)?.[1]
    if (!json) return []
    const record: Record<string, unknown> = JSON.parse(json)
    return record.tenant === tenant ? [record] : []
  })
}

describe('useMcpLogger', () => {
  it('legacy: notifies the client at its level, and writes the server lines with the call\'s context', async () => {
    const client = await connectLegacy(app.url, { requestInit: { headers: { 'x-user': 'ada' } } })
    const sessionId = client.transport?.sessionId
    expect(sessionId).toMatch(/\S/)
    const received: { level: string, logger?: string, data: unknown }[] = []
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      received.push({ level: notification.params.level, logger: notification.params.logger, data: notification.params.data })
    })
    try {
      await client.setLoggingLevel('info')
      expect(textOf(await client.callTool({ name: 'log_work', arguments: { tenant: 'acme-legacy' } }))).toBe('charged')
      await until(() => received.length >= 2, 'two log notifications')
      expect(received).toEqual([
        { level: 'info', logger: 'billing', data: { step: 'starting' } },
        { level: 'warning', logger: 'billing', data: { message: 'card expires soon', months: 1 } },
      ])
    }
    finally {
      await client.close()
    }
    await until(() => serverLines('acme-legacy').length >= 2, 'two server lines')
    const [event, warning] = serverLines('acme-legacy')
    expect(event).toMatchObject({ message: 'charge_started', level: 'info', logger: 'billing', call: 'tools/call log_work', principal: 'ada', endpoint: '/mcp', era: 'legacy', tenant: 'acme-legacy', amount: 1000 })
    // The session as a keyed hash, never its id (an anonymous session's only credential).
    expect(event?.sessionTag).toMatch(SESSION_TAG)
    expect(warning?.sessionTag).toBe(event?.sessionTag)
    expect(event).not.toHaveProperty('sessionId')
    expect(JSON.stringify(serverLines('acme-legacy'))).not.toContain(sessionId)
    expect(typeof event?.requestId).toBe('string')
    expect(warning).toMatchObject({ message: 'card expires soon', level: 'warn', tenant: 'acme-legacy', months: 1 })
  })

  it('modern: the same server lines, without a session', async () => {
    const client = await connectModern(app.url, { requestInit: { headers: { 'x-user': 'bob' } } })
    try {
      expect(textOf(await client.callTool({ name: 'log_work', arguments: { tenant: 'acme-modern' } }))).toBe('charged')
    }
    finally {
      await client.close()
    }
    await until(() => serverLines('acme-modern').length >= 2, 'two server lines')
    const [event] = serverLines('acme-modern')
    expect(event).toMatchObject({ message: 'charge_started', call: 'tools/call log_work', principal: 'bob', era: 'modern', amount: 1000 })
    expect(event).not.toHaveProperty('sessionId')
    expect(event).not.toHaveProperty('sessionTag')
  })
})
