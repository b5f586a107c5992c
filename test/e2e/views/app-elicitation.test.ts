// App-rendered elicitation (SEP-3118, draft) on the wire, in both eras, against the built `views`
// fixture: `form({ view: 'date-range' })` carries `_meta.ui.resourceUri` only to a client that
// declared form elicitation and the apps extension with `elicitation: {}` and the MCP App mime
// type; every other client gets exactly the plain form. Either way the answer is validated against
// the same shape, and a question asked again after an invalid answer keeps its view.
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectV1, connectV2 } from '../../../scripts/mcp-clients.mjs'
import { buildFixture, startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { textOf } from '../../utils/clients'
import type { ScriptedAnswer } from '../../utils/clients'
import { postModern } from '../../utils/raw'

const EXTENSION = 'io.modelcontextprotocol/ui'
const MIME = 'text/html;profile=mcp-app'
const RENDERS_APPS = { elicitation: { form: {} }, extensions: { [EXTENSION]: { mimeTypes: [MIME], elicitation: {} } } }
const VIEW = { ui: { resourceUri: 'ui://date-range' } }
const DATES = { from: '2026-12-24', to: '2026-12-27' }

let fixture: RunningFixture
const clients: { close: () => Promise<void> }[] = []

beforeAll(async () => {
  await buildFixture('views', { reuse: true })
  fixture = await startFixture('views')
}, 180_000)

afterAll(async () => {
  for (const client of clients) await client.close()
  await fixture?.stop()
})

/** A v1 SDK client (2025-11-25 session) that answers with `answers` in turn and records what it was asked. */
async function legacyClient(capabilities: Record<string, unknown>, answers: ScriptedAnswer[]) {
  const received: Record<string, unknown>[] = []
  const { client } = await connectV1(fixture.url, { capabilities, onElicit: (params: Record<string, unknown>) => {
    received.push(params)
    return answers[received.length - 1] ?? { action: 'cancel' }
  } })
  clients.push(client)
  return { client: client as LegacyClient, received }
}

describe('app-rendered elicitation on a 2025-11-25 session', () => {
  it('attaches the view to a client that renders app elicitations, keeps it on the question asked again, and types the answer', async () => {
    const { client, received } = await legacyClient(RENDERS_APPS, [
      { action: 'accept', content: { from: 'next friday', to: DATES.to } },
      { action: 'accept', content: DATES },
    ])
    expect(textOf(await client.callTool({ name: 'book-stay', arguments: {} }))).toBe('Booked 2026-12-24 to 2026-12-27')
    expect(received).toHaveLength(2)
    expect(received[0]).toMatchObject({ message: 'When do you arrive and leave?', _meta: VIEW, requestedSchema: { properties: { from: { type: 'string', format: 'date' } } } })
    // The answer the view sent was checked like any form answer: asked again, with the view.
    expect(received[1]).toMatchObject({ message: expect.stringContaining('Please correct your answer'), _meta: VIEW })
  })

  it('sends exactly the plain form to a client without the extension, or with it but without app elicitation', async () => {
    for (const capabilities of [{ elicitation: { form: {} } }, { elicitation: { form: {} }, extensions: { [EXTENSION]: { mimeTypes: [MIME] } } }]) {
      const { client, received } = await legacyClient(capabilities, [{ action: 'accept', content: DATES }])
      expect(textOf(await client.callTool({ name: 'book-stay', arguments: {} }))).toBe('Booked 2026-12-24 to 2026-12-27')
      expect(received[0]).not.toHaveProperty('_meta')
    }
  })

  it('refuses a form that names a view that does not exist, naming it and the views there are', async () => {
    const { client, received } = await legacyClient(RENDERS_APPS, [])
    const result = await client.callTool({ name: 'ask-missing-view', arguments: {} })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/form\(\{ view: "nope" \}\) names an MCP App view that does not exist \(views: .*"date-range".*\)\. Add app\/mcp\/nope\.vue/)
    expect(received).toHaveLength(0)
  })
})

describe('app-rendered elicitation on 2026-07-28', () => {
  it('puts the view in the input_required request only for a client that renders app elicitations', async () => {
    const withApps = await postModern(fixture.url, 'tools/call', { name: 'book-stay', arguments: {} }, { capabilities: RENDERS_APPS })
    expect(withApps.message.result).toMatchObject({ resultType: 'input_required', inputRequests: { q0: { method: 'elicitation/create', params: { _meta: VIEW } } } })
    const plain = await postModern(fixture.url, 'tools/call', { name: 'book-stay', arguments: {} }, { capabilities: { elicitation: { form: {} } } })
    const request = (plain.message.result?.inputRequests as Record<string, { params: Record<string, unknown> }>).q0
    expect(request?.params).not.toHaveProperty('_meta')
  })

  it('completes with the v2 SDK client pinned to 2026-07-28, the view kept on the retry after an invalid answer', async () => {
    const received: Record<string, unknown>[] = []
    const answers: ScriptedAnswer[] = [{ action: 'accept', content: { from: DATES.from, to: 'later' } }, { action: 'accept', content: DATES }]
    const { client } = await connectV2(fixture.url, { capabilities: RENDERS_APPS, mode: { pin: '2026-07-28' }, onElicit: (params: Record<string, unknown>) => {
      received.push(params)
      return answers[received.length - 1] ?? { action: 'cancel' }
    } })
    clients.push(client)
    expect(textOf(await client.callTool({ name: 'book-stay', arguments: {} }))).toBe('Booked 2026-12-24 to 2026-12-27')
    expect(received.map(params => params._meta)).toEqual([VIEW, VIEW])
  })
})
