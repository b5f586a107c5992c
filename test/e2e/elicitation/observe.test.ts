import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import type { Answerer, ConnectOptions } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { SESSION_TAG } from '../../utils/traces'
import { until } from '../../utils/until'

/**
 * The production lifecycle hooks `mcp:call` and `mcp:question`, heard by a Nitro plugin of the
 * elicitation fixture (server/plugins/observe.ts). Each test calls as its own principal
 * (`x-user`), so it reads only its own events.
 */

let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('elicitation')
})
afterAll(async () => {
  await app?.stop()
})

type Observed = { hook: 'mcp:call' | 'mcp:question', event: Record<string, unknown> }

async function observedBy(principal: string, on: RunningFixture = app): Promise<Observed[]> {
  const response = await fetch(new URL(`/observed?principal=${principal}`, on.url))
  return response.json()
}

/** Waits until `count` events of `principal` arrived, then returns them (more would fail the caller's exact match). */
async function eventsOf(principal: string, count: number, on: RunningFixture = app): Promise<Observed[]> {
  let events: Observed[] = []
  await until(async () => (events = await observedBy(principal, on)).length >= count, `${count} events for ${principal}`)
  return events
}

/** The session id the last legacy client was given, kept to check that no event carries it. */
let lastSessionId: string | undefined

/** Calls `name` once as `principal`, on a fresh client of the era (of the app `on`). */
async function callAs(era: 'legacy' | 'modern', principal: string, name: string, args: Record<string, unknown>, answer?: Answerer, on: RunningFixture = app) {
  const options: ConnectOptions = { answer, requestInit: { headers: { 'x-user': principal } } }
  const client = era === 'legacy' ? await connectLegacy(on.url, options) : await connectModern(on.url, options)
  lastSessionId = era === 'legacy' ? client.transport?.sessionId : undefined
  try {
    return await client.callTool({ name, arguments: args })
  }
  finally {
    await client.close()
  }
}

const compact = ({ hook, event }: Observed) => hook === 'mcp:call'
  ? `call ${String(event.name)} ${String(event.outcome)}${event.errorCode !== undefined ? ` ${String(event.errorCode)}` : ''}`
  : `question ${String(event.key)} ${String(event.stage)}${event.invalidFields ? ` ${JSON.stringify(event.invalidFields)}` : ''}${event.errorCode ? ` ${String(event.errorCode)}` : ''}`

describe.each(['legacy', 'modern'] as const)('%s era', (era) => {
  const rounds = (modern: string[], legacy: string[]) => (era === 'modern' ? modern : legacy)

  it('tells an accepted form: the call (every modern round) and the question, with the call\'s facts and no answered values', async () => {
    const who = `${era}-ok`
    await callAs(era, who, 'ask_form', { label: who }, () => ({ action: 'accept', content: { name: 'Ada', plan: 'pro' } }))
    const expected = rounds(
      ['question q0 asked', 'call ask_form input-required', 'question q0 answered', 'call ask_form ok'],
      ['question q0 asked', 'question q0 answered', 'call ask_form ok'],
    )
    const events = await eventsOf(who, expected.length)
    expect(events.map(compact)).toEqual(expected)
    const call = events.at(-1)!.event
    expect(call).toMatchObject({ method: 'tools/call', name: 'ask_form', endpoint: '/mcp', era, principal: who, outcome: 'ok' })
    expect(typeof call.durationMs).toBe('number')
    // Never the session id (an anonymous session's credential): a keyed hash of it, the spans' and log lines' value.
    expect(call).not.toHaveProperty('sessionId')
    const question = events[0]!.event
    if (era === 'modern') expect(call).not.toHaveProperty('sessionTag')
    else {
      expect(call.sessionTag).toMatch(SESSION_TAG)
      expect(question.sessionTag).toBe(call.sessionTag)
      expect(lastSessionId).toMatch(/\S/)
      expect(JSON.stringify(events)).not.toContain(lastSessionId)
    }
    expect(question).toMatchObject({ call: { method: 'tools/call', name: 'ask_form' }, kind: 'elicit', mode: 'form', via: era === 'modern' ? 'input-required' : 'push', message: 'Your details', fields: ['name', 'age', 'plan', 'tags', 'subscribe'] })
    // A production build without `mcp.observe.answers`: the answer's stage says how long, never what.
    const answered = events.find(({ event }) => event.stage === 'answered')!.event
    expect(answered).toMatchObject({ waitedMs: expect.any(Number), runId: expect.any(Number) })
    for (const { event } of events) expect(event).not.toHaveProperty('content')
    expect(JSON.stringify(events)).not.toContain('Ada')
  })

  it('tells a declined question, and an invalid answer asked again before the valid one', async () => {
    const declined = `${era}-decline`
    await callAs(era, declined, 'ask_form', { label: declined }, () => ({ action: 'decline' }))
    const expectedDecline = rounds(
      ['question q0 asked', 'call ask_form input-required', 'question q0 declined', 'call ask_form ok'],
      ['question q0 asked', 'question q0 declined', 'call ask_form ok'],
    )
    expect((await eventsOf(declined, expectedDecline.length)).map(compact)).toEqual(expectedDecline)

    const corrected = `${era}-invalid`
    let asked = 0
    await callAs(era, corrected, 'ask_form', { label: corrected }, () => (asked++ === 0 ? { action: 'accept', content: { name: 'A', plan: 'pro' } } : { action: 'accept', content: { name: 'Ada', plan: 'pro' } }))
    const expectedInvalid = rounds(
      ['question q0 asked', 'call ask_form input-required', 'question q0 invalid ["name"]', 'question q0 asked', 'call ask_form input-required', 'question q0 answered', 'call ask_form ok'],
      ['question q0 asked', 'question q0 invalid ["name"]', 'question q0 asked', 'question q0 answered', 'call ask_form ok'],
    )
    const invalidEvents = await eventsOf(corrected, expectedInvalid.length)
    expect(invalidEvents.map(compact)).toEqual(expectedInvalid)
    // The refused answer is not told either: no content, no issues (they may quote it).
    for (const { event } of invalidEvents) {
      expect(event).not.toHaveProperty('content')
      expect(event).not.toHaveProperty('issues')
    }
  })

  it('tells a tool error and a protocol error (with its code)', async () => {
    const who = `${era}-errors`
    const refused = await callAs(era, who, 'ask_bad_schema', {})
    expect(refused.isError).toBe(true)
    await expect(callAs(era, who, 'no_such_tool', {})).rejects.toThrow(/Unknown tool "no_such_tool"/)
    expect((await eventsOf(who, 2)).map(compact)).toEqual(['call ask_bad_schema tool-error', 'call no_such_tool protocol-error -32602'])
  })
})

describe('legacy waits', () => {
  it('tells a question that timed out', async () => {
    const who = 'legacy-timeout'
    const result = await callAs('legacy', who, 'ask_wait', { label: who, timeout: 200 }, () => new Promise(() => {}))
    expect(textOf(result)).toMatch(/timeout|did not answer|within/i)
    expect((await eventsOf(who, 3)).map(compact)).toEqual(['question q0 asked', 'question q0 timed-out timeout', 'call ask_wait tool-error'])
  })

  it('tells a call the client cancelled, and its question\'s wait ending with it', async () => {
    const who = 'legacy-cancel'
    const abort = new AbortController()
    const client = await connectLegacy(app.url, {
      answer: () => {
        abort.abort()
        return new Promise(() => {})
      },
      requestInit: { headers: { 'x-user': who } },
    })
    try {
      await expect(client.callTool({ name: 'ask_wait', arguments: { label: who } }, undefined, { signal: abort.signal })).rejects.toThrow()
      // The client stays connected until the server has told the end: closing at once would race
      // its notifications/cancelled (a closed client is a disconnect, which legacy streams outlive
      // for their resumption grace).
      const events = await eventsOf(who, 3)
      expect(events.map(compact)).toEqual(['question q0 asked', 'question q0 failed cancelled', 'call ask_wait cancelled'])
    }
    finally {
      await client.close()
    }
  })
})

describe('the answers opt-in', () => {
  it('with NUXT_MCP_OBSERVE_ANSWERS=true, adds what the person sent and why it was refused', async () => {
    const optedIn = await startFixture('elicitation', { NUXT_MCP_OBSERVE_ANSWERS: 'true' })
    try {
      const who = 'opted-in'
      let asked = 0
      await callAs('legacy', who, 'ask_form', { label: who }, () => (asked++ === 0 ? { action: 'accept', content: { name: 'A', plan: 'pro' } } : { action: 'accept', content: { name: 'Ada', plan: 'pro' } }), optedIn)
      const questions = (await eventsOf(who, 5, optedIn)).filter(({ hook }) => hook === 'mcp:question').map(({ event }) => event)
      expect(questions[1]).toMatchObject({ stage: 'invalid', content: { name: 'A', plan: 'pro' }, issues: [expect.stringContaining('name')] })
      expect(questions[3]).toMatchObject({ stage: 'answered', content: { name: 'Ada', plan: 'pro' } })
    }
    finally {
      await optedIn.stop()
    }
  })
})
