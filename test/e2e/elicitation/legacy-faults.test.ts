import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { until } from '../../utils/until'

/** internals() opens a legacy session per poll: poll slowly, under the session cap (100 per caller). */
const POLL_MS = 100

let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('elicitation')
})
afterAll(async () => {
  await app?.stop()
})

/** A person who never answers: the wait can only end by timeout or abort. */
const neverAnswer = () => new Promise<never>(() => {})

async function internals(): Promise<{ pendingLegacy: number, outcomes: Record<string, string> }> {
  const client = await connectLegacy(app.url)
  const result = await client.callTool({ name: 'internals', arguments: {} })
  await client.close()
  return JSON.parse((result.content as { text: string }[])[0]!.text)
}

describe('legacy elicitation faults', () => {
  it('times out with McpElicitationError("timeout") naming the option', async () => {
    const client = await connectLegacy(app.url, { answer: neverAnswer })
    const result = await client.callTool({ name: 'ask_wait', arguments: { label: 'timeout', timeout: 300 } })
    expect(result.isError).toBe(true)
    expect((result.content as { text: string }[])[0]!.text).toMatch(/within 300 ms.*timeout/)
    expect((await internals()).outcomes.timeout).toBe('timeout')
    await client.close()
  })

  it('aborts the wait promptly when the client cancels the call', async () => {
    const client = await connectLegacy(app.url, { answer: neverAnswer })
    const controller = new AbortController()
    const call = client.callTool({ name: 'ask_wait', arguments: { label: 'cancel' } }, undefined, { signal: controller.signal }).catch(() => 'aborted')
    await until(async () => (await internals()).outcomes.cancel === 'waiting', 'the wait to start', 5000, POLL_MS)
    controller.abort()
    expect(await call).toBe('aborted')
    await until(async () => (await internals()).outcomes.cancel === 'cancelled', '"cancelled" after the abort', 5000, POLL_MS)
    await client.close()
  })

  it('aborts the wait when the client disconnects and does not resume within the grace', async () => {
    const client = await connectLegacy(app.url, { answer: neverAnswer })
    void client.callTool({ name: 'ask_wait', arguments: { label: 'disconnect' } }).catch(() => {})
    await until(async () => (await internals()).outcomes.disconnect === 'waiting', 'the wait to start', 5000, POLL_MS)
    // Closing the transport drops the open POST stream without a cancellation message. The
    // stream was primed (a 2025-11-25 session), so the wait goes on for the 5 s a client has to
    // resume it (GET + Last-Event-ID, see transport/resumption.test.ts), then ends.
    await client.close()
    const dropped = Date.now()
    await until(async () => (await internals()).outcomes.disconnect === 'cancelled', '"cancelled" after the grace', 10_000, POLL_MS)
    expect(Date.now() - dropped).toBeGreaterThanOrEqual(4500)
  })

  it('aborts the wait when the session is deleted', async () => {
    const client = await connectLegacy(app.url, { answer: neverAnswer })
    // The client's own call cannot end cleanly: its stream closes with the session. Only the
    // server side (the handler's wait) is under test here.
    void client.callTool({ name: 'ask_wait', arguments: { label: 'delete' } }).catch(() => {})
    await until(async () => (await internals()).outcomes.delete === 'waiting', 'the wait to start', 5000, POLL_MS)
    const sessionId = (client.transport as { sessionId?: string }).sessionId
    expect(sessionId).toBeTruthy()
    const response = await fetch(app.url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId! } })
    expect(response.status).toBe(200)
    await until(async () => (await internals()).outcomes.delete === 'cancelled', '"cancelled" after the DELETE', 5000, POLL_MS)
    await client.close().catch(() => {})
  })

  it('leaves no pending elicitation behind', async () => {
    await until(async () => (await internals()).pendingLegacy === 0, 'no pending elicitation', 5000, POLL_MS)
    expect((await internals()).pendingLegacy).toBe(0)
  })
})

describe('legacy progress while waiting', () => {
  let fast: RunningFixture
  beforeAll(async () => {
    fast = await startFixture('elicitation', { NUXT_MCP_ELICITATION_PROGRESS_INTERVAL_MS: '200' })
  })
  afterAll(async () => {
    await fast?.stop()
  })

  it('keeps a client with a short request timeout alive while the person takes longer', async () => {
    const client = await connectLegacy(fast.url, {
      answer: async () => {
        await new Promise(resolve => setTimeout(resolve, 2000))
        return { action: 'accept', content: { x: 'late but fine' } }
      },
    })
    let progress = 0
    // A 1 s request timeout would fire long before the 2 s answer without the server's pings.
    const result = await client.callTool({ name: 'ask_wait', arguments: { label: 'progress' } }, undefined, {
      timeout: 1000,
      resetTimeoutOnProgress: true,
      onprogress: () => { progress += 1 },
    })
    expect((result.content as { text: string }[])[0]!.text).toBe('accept')
    expect(progress).toBeGreaterThanOrEqual(5)
    await client.close()
  })
})
