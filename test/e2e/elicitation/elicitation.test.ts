import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import type { Answerer, ConnectOptions, ScriptedAnswer } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { ASK_FORM_WIRE_SCHEMA } from '../../utils/expected'

let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('elicitation')
})
afterAll(async () => {
  await app?.stop()
})


const eras = [
  { era: 'legacy', client: 'v1 Client', connect: (options: ConnectOptions) => connectLegacy(app.url, options) },
  { era: 'modern', client: 'v2 Client pinned 2026-07-28', connect: (options: ConnectOptions) => connectModern(app.url, options) },
  { era: 'legacy', client: 'v2 Client legacy', connect: (options: ConnectOptions) => connectModern(app.url, options, 'legacy') },
  // `auto` probes server/discover first; this server answers it, so the client goes modern.
  { era: 'modern', client: 'v2 Client auto', connect: (options: ConnectOptions) => connectModern(app.url, options, 'auto') },
] as const

async function callWith(connect: (options: ConnectOptions) => ReturnType<typeof connectLegacy | typeof connectModern>, answer: Answerer | undefined, name: string, args: Record<string, unknown> = {}, received: Record<string, unknown>[] = []) {
  const client = await connect({ answer, received })
  try {
    return await client.callTool({ name, arguments: args })
  }
  finally {
    await client.close()
  }
}

describe.each(eras)('$era era ($client)', ({ era, connect }) => {
  it('asks a spec-exact form and returns the typed answer with defaults', async () => {
    const received: Record<string, unknown>[] = []
    const result = await callWith(connect, () => ({ action: 'accept', content: { name: 'Ada', plan: 'pro', tags: ['a', 'c'] } }), 'ask_form', { label: `accept-${era}` }, received)
    expect(JSON.parse(textOf(result))).toEqual({ action: 'accept', content: { name: 'Ada', plan: 'pro', tags: ['a', 'c'], subscribe: true } })
    expect(received).toHaveLength(1)
    expect(received[0]!.message).toBe('Your details')
    expect(received[0]!.requestedSchema).toEqual(ASK_FORM_WIRE_SCHEMA)
  })

  it.each([
    { library: 'valibot', wire: { type: 'object', properties: { name: { type: 'string', title: 'Name', minLength: 2 }, seats: { type: 'integer', minimum: 1, default: 1 }, plan: { type: 'string', enum: ['free', 'pro'] } }, required: ['name', 'plan'] } },
    // ArkType's converter lists required keys first and drops defaults (docs/elicitation.md).
    { library: 'arktype', wire: { type: 'object', properties: { name: { type: 'string', title: 'Name', minLength: 2 }, plan: { type: 'string', enum: ['free', 'pro'] }, seats: { type: 'integer', minimum: 1 } }, required: ['name', 'plan'] } },
  ])('asks a $library form, re-asks an invalid answer naming the field, and returns the library\'s typed output', async ({ library, wire }) => {
    const received: Record<string, unknown>[] = []
    const answers: Answerer = () => received.length === 1
      ? { action: 'accept', content: { name: 'A', plan: 'pro' } }
      : { action: 'accept', content: { name: 'Ada', plan: 'pro' } }
    const result = await callWith(connect, answers, 'ask_form_library', { library }, received)
    expect(JSON.parse(textOf(result))).toEqual({ action: 'accept', content: { name: 'Ada', seats: 1, plan: 'pro' }, seatsDoubled: 2 })
    expect(received.map(params => params.requestedSchema)).toEqual([wire, wire])
    expect(received[1]!.message).toMatch(/^Book seats\n\nPlease correct your answer: "name": /)
  })

  it.each(['decline', 'cancel'] as const)('returns %s without content', async (action) => {
    const result = await callWith(connect, () => ({ action }), 'ask_form')
    expect(JSON.parse(textOf(result))).toEqual({ action })
  })

  it('confirm() is true only for an accepted true', async () => {
    const received: Record<string, unknown>[] = []
    expect(textOf(await callWith(connect, () => ({ action: 'accept', content: { confirm: true } }), 'ask_confirm', {}, received))).toBe('confirmed')
    // One boolean defaulting to "no", not required: an unticked box can be submitted, as "no".
    expect(received[0]!.requestedSchema).toEqual({ type: 'object', properties: { confirm: { type: 'boolean', title: 'Confirm', default: false } } })
    expect(textOf(await callWith(connect, () => ({ action: 'accept', content: { confirm: false } }), 'ask_confirm'))).toBe('not confirmed')
    expect(textOf(await callWith(connect, () => ({ action: 'accept', content: {} }), 'ask_confirm'))).toBe('not confirmed')
    expect(textOf(await callWith(connect, () => ({ action: 'decline' }), 'ask_confirm'))).toBe('not confirmed')
  })

  it('asks a URL-mode question', async () => {
    const received: Record<string, unknown>[] = []
    const result = await callWith(connect, () => ({ action: 'accept' }), 'ask_url', {}, received)
    expect(JSON.parse(textOf(result))).toEqual({ action: 'accept', hasId: era === 'legacy' })
    expect(received[0]).toMatchObject({ mode: 'url', message: 'Connect your account', url: 'https://example.com/connect' })
  })

  it('refuses a javascript: URL with invalid-url, naming the scheme', async () => {
    const result = await callWith(connect, () => ({ action: 'accept' }), 'ask_url', { url: 'javascript:alert(1)' })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/"javascript:" is not allowed/)
  })

  it('runs several elicitations in sequence (multi-round)', async () => {
    const answers: Answerer = (params): ScriptedAnswer => String(params.message).startsWith('First')
      ? { action: 'accept', content: { first: 'Ada' } }
      : { action: 'accept', content: { last: 'Lovelace' } }
    const before = await callWith(connect, undefined, 'runs')
    const result = await callWith(connect, answers, 'ask_two_rounds')
    expect(textOf(result)).toBe('Ada Lovelace')
    const runs = JSON.parse(textOf(await callWith(connect, undefined, 'runs')))
    const previous = JSON.parse(textOf(before)).ask_two_rounds ?? 0
    // Legacy: the handler runs exactly once. Modern: once per round (3 rounds for 2 questions).
    expect(runs.ask_two_rounds - previous).toBe(era === 'legacy' ? 1 : 3)
  })

  it('once() runs a side effect once per call, across modern rounds', async () => {
    const before = JSON.parse(textOf(await callWith(connect, undefined, 'runs')))
    const runsBefore = before['ask_once:step'] ?? 0
    const voidBefore = before['ask_once:void'] ?? 0
    const result = await callWith(connect, (params): ScriptedAnswer => String(params.message).startsWith('First') ? { action: 'accept', content: { a: 'x' } } : { action: 'decline' }, 'ask_once')
    expect(textOf(result)).toMatch(/^ticket \d+: accept\/decline$/)
    const after = JSON.parse(textOf(await callWith(connect, undefined, 'runs')))
    expect(after['ask_once:step'] - runsBefore).toBe(1)
    expect(after['ask_once:void'] - voidBefore).toBe(1)
  })

  it('asks questions started together', async () => {
    const received: Record<string, unknown>[] = []
    const result = await callWith(connect, (params): ScriptedAnswer => params.message === 'Pick A' ? { action: 'accept', content: { a: 'x' } } : { action: 'accept', content: { b: 2 } }, 'ask_parallel', {}, received)
    expect(JSON.parse(textOf(result))).toEqual([{ action: 'accept', content: { a: 'x' } }, { action: 'accept', content: { b: 2 } }])
    expect(received.map(params => params.message).sort()).toEqual(['Pick A', 'Pick B'])
  })

  it('is not fooled by a handler that races or catches around form()', async () => {
    const result = await callWith(connect, async () => {
      await new Promise(resolve => setTimeout(resolve, 50))
      return { action: 'accept', content: { color: 'red' } }
    }, 'ask_swallow')
    // Legacy really waits, so the handler's own 5 ms race wins there, as its code says. Modern
    // re-runs the handler: a pending question must end the round, never let the race "win".
    expect(textOf(result)).toBe(era === 'legacy' ? 'gave up waiting' : 'color red')
  })

  it('refuses a nested object schema with invalid-schema naming the field', async () => {
    const result = await callWith(connect, () => ({ action: 'accept' }), 'ask_bad_schema')
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/address/)
  })

  it('reports what the client supports, per request', async () => {
    expect(JSON.parse(textOf(await callWith(connect, () => ({ action: 'cancel' }), 'ask_supports')))).toEqual({ form: true, url: true })
    expect(JSON.parse(textOf(await callWith(connect, undefined, 'ask_supports')))).toEqual({ form: false, url: false })
  })

  it('uses the declared fallback when the client cannot elicit', async () => {
    expect(textOf(await callWith(connect, undefined, 'ask_fallback'))).toBe('supports=false channel=stable')
  })

  it('elicits inside a resource and a prompt', async () => {
    const client = await connect({ answer: (params): ScriptedAnswer => String(params.message).startsWith('Who') ? { action: 'accept', content: { who: 'Grace' } } : { action: 'accept', content: { topic: 'bugs' } } })
    const resource = await client.readResource({ uri: 'elicit://greeting' })
    expect(resource.contents[0]).toMatchObject({ text: 'Hello, Grace!' })
    const prompt = await client.getPrompt({ name: 'ask_topic' })
    expect(prompt.messages[0]!.content).toEqual({ type: 'text', text: 'Review for bugs.' })
    await client.close()
  })
})

describe('era-specific behaviour', () => {
  it.each(eras)('$client: an invalid answer is asked again with what was wrong, then accepted', async ({ connect }) => {
    const received: Record<string, unknown>[] = []
    let calls = 0
    const result = await callWith(connect, () => (++calls === 1 ? { action: 'accept', content: { name: 'A', plan: 'gold' } } : { action: 'accept', content: { name: 'Ada', plan: 'free' } }), 'ask_form', {}, received)
    expect(JSON.parse(textOf(result))).toMatchObject({ action: 'accept', content: { name: 'Ada', plan: 'free' } })
    expect(received).toHaveLength(2)
    expect(String(received[1]!.message)).toMatch(/Please correct your answer: .*name.*plan/s)
  })

  it.each(eras)('$client: an answer that stays invalid ends with invalid-response after the attempts, naming the fields', async ({ connect }) => {
    const received: Record<string, unknown>[] = []
    const result = await callWith(connect, () => ({ action: 'accept', content: { name: 'A', plan: 'gold' } }), 'ask_form', {}, received)
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/invalid 3 times/)
    expect(textOf(result)).toMatch(/"name"/)
    expect(textOf(result)).toMatch(/"plan"/)
    expect(received).toHaveLength(3)
  })

  it('legacy: a client without the capability gets unsupported in the handler', async () => {
    const result = await callWith(eras[0].connect, undefined, 'ask_form')
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/did not declare the elicitation form mode/)
  })

  it('modern: a client without the capability gets -32021 naming the capability', async () => {
    const client = await connectModern(app.url)
    await expect(client.callTool({ name: 'ask_form', arguments: {} })).rejects.toMatchObject({ code: -32021 })
    await client.close()
  })
})
