import fc from 'fast-check'
import type { Arbitrary, JsonValue } from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import type { ScriptedAnswer } from '../../utils/clients'
import { isRecord } from '../../../src/runtime/server/common/is-record'
import { nextMessage, openRawLegacy, singleMessage, sseMessages } from '../../utils/raw-legacy'
import type { RpcMessage } from '../../utils/raw-legacy'
import { JSON_HEADERS, LEGACY, postModern, runsOf } from '../../utils/raw'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { until } from '../../utils/until'

/**
 * Hostile and heavy traffic against the elicitation fixture: bad legacy answers, unknown
 * methods, fuzzed modern retries, 500 concurrent flows in both eras, and what is left behind.
 */

// Short enough to watch eviction in a test; long enough that a busy 2-core machine (100 flows in
// flight, another test file building beside it) does not evict a session between a client's
// initialize and its next request. At 1 s that happened to 6 of 20 warm-up flows, at 5 s to 12
// of 500 load flows, at 10 s to 27 of 500 with the machine also running builds.
const IDLE_MS = 30_000
const env = {
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --expose-gc`.trim(),
  NUXT_MCP_SESSIONS_IDLE_TIMEOUT_MS: String(IDLE_MS),
  // 250 flows from one loopback client, half of which leave their session open: above the
  // per-client cap (100), whose eviction transport/hostile-sessions.test.ts covers.
  NUXT_MCP_SESSIONS_MAX_PER_PRINCIPAL: '1000',
}

let app: RunningFixture
let loadApp: RunningFixture

beforeAll(async () => {
  ;[app, loadApp] = await Promise.all([startFixture('elicitation', env), startFixture('elicitation', env)])
})
afterAll(async () => {
  await Promise.all([app, loadApp].map(server => server?.stop()))
})

// ---------------------------------------------------------------------------------------------
// Helpers

interface Internals {
  pendingLegacy: number
  sessions: { open: number, active: number }
  rss: number
  heapUsed: number
  /** What V8 has committed for its heap, used or not. */
  heapTotal: number
  /** Memory outside the JS heap held by JS objects (Buffers, ArrayBuffers). */
  native: number
  gc: boolean
}

/** Reads the fixture's counters over a stateless modern request (opens no session). */
async function internals(server: RunningFixture): Promise<Internals> {
  const { status, message } = await postModern(server.url, 'tools/call', { name: 'internals', arguments: {} })
  expect(status).toBe(200)
  const parsed: unknown = JSON.parse(textOf(message.result))
  if (!isRecord(parsed) || !isRecord(parsed.sessions)) throw new Error(`unexpected internals: ${JSON.stringify(parsed)}`)
  return {
    pendingLegacy: Number(parsed.pendingLegacy),
    sessions: { open: Number(parsed.sessions.open), active: Number(parsed.sessions.active) },
    rss: Number(parsed.rss),
    heapUsed: Number(parsed.heapUsed),
    heapTotal: Number(parsed.heapTotal),
    native: Number(parsed.native),
    gc: parsed.gc === true,
  }
}


// ---------------------------------------------------------------------------------------------
// 1. Bad legacy answers

describe('legacy: bad elicitation answers end in an isError result naming the problem', () => {
  const cases: { name: string, answer: ScriptedAnswer, problem: RegExp[] }[] = [
    { name: 'wrong types', answer: { action: 'accept', content: { name: 5, plan: 'pro' } }, problem: [/"name": expected a string, received 5/] },
    { name: 'extra field', answer: { action: 'accept', content: { name: 'Ada', plan: 'pro', admin: true } }, problem: [/unexpected field 'admin'/] },
    { name: 'missing required', answer: { action: 'accept', content: { plan: 'pro' } }, problem: [/"name": missing/] },
    { name: 'content on decline', answer: { action: 'decline', content: { name: 'x' } }, problem: [/content is only allowed when action is 'accept'/, /decline/] },
  ]

  for (const { name, answer, problem } of cases) {
    it(`${name} (v1 SDK client)`, async () => {
      const client = await connectLegacy(app.url, { answer: () => answer })
      try {
        const result = await client.callTool({ name: 'ask_form', arguments: { label: `bad-${name}` } })
        expect(result.isError).toBe(true)
        const text = textOf(result)
        for (const pattern of problem) expect(text).toMatch(pattern)
        // The same session keeps serving.
        const again = await client.callTool({ name: 'runs', arguments: {} })
        expect(again.isError).toBeFalsy()
        expect(JSON.parse(textOf(again))[`ask_form:bad-${name}`]).toBe(1)
      }
      finally {
        await client.close()
      }
    })
  }

  it('unknown action "maybe" (raw client: the v1 SDK refuses to send it)', async () => {
    const session = await openRawLegacy(app)
    try {
      const call = await session.post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask_form', arguments: { label: 'bad-maybe' } } })
      expect(call.status).toBe(200)
      expect(call.headers.get('content-type')).toMatch(/text\/event-stream/)
      const messages = sseMessages(call)
      const pushed = await nextMessage(messages, 'the elicitation request')
      expect(pushed.method).toBe('elicitation/create')
      expect(pushed.id).toBeDefined()
      const answer = await session.post({ jsonrpc: '2.0', id: pushed.id, result: { action: 'maybe' } })
      expect(answer.status).toBe(202)
      await answer.body?.cancel()
      const final = await nextMessage(messages, 'the tools/call result')
      expect(final.id).toBe(2)
      expect(final.error).toBeUndefined()
      expect(final.result?.isError).toBe(true)
      const text = textOf(final.result)
      // The SDK rejects the result before the module's own shape check; the module replaces its
      // schema dump with what a valid answer looks like.
      expect(text).toMatch(/not a valid result/)
      expect(text).toMatch(/action/)
      expect(text).toMatch(/accept.*decline.*cancel/s)
      await messages.return(undefined)
      // Same session, next call: still served.
      const list = await session.post({ jsonrpc: '2.0', id: 3, method: 'tools/list' })
      expect(list.status).toBe(200)
      expect((await singleMessage(list)).result?.tools).toBeInstanceOf(Array)
    }
    finally {
      await session.close()
    }
  })

  it('leaves no pending legacy elicitation behind', async () => {
    await until(async () => (await internals(app)).pendingLegacy === 0, 'no pending legacy elicitation', 5000, 100)
  })
})

// ---------------------------------------------------------------------------------------------
// 2. Unknown JSON-RPC methods

describe('unknown JSON-RPC method', () => {
  it('legacy session: -32601', async () => {
    const session = await openRawLegacy(app)
    try {
      const response = await session.post({ jsonrpc: '2.0', id: 9, method: 'tools/frobnicate', params: {} })
      expect(response.status).toBe(200)
      const message = await singleMessage(response)
      expect(message.id).toBe(9)
      expect(message.error?.code).toBe(-32601)
      // The session survives it.
      const list = await session.post({ jsonrpc: '2.0', id: 10, method: 'tools/list' })
      expect((await singleMessage(list)).result?.tools).toBeInstanceOf(Array)
    }
    finally {
      await session.close()
    }
  })

  it('legacy session: the -32601 message names the method', async () => {
    const session = await openRawLegacy(app)
    try {
      const message = await singleMessage(await session.post({ jsonrpc: '2.0', id: 11, method: 'tools/frobnicate', params: {} }))
      expect(message.error?.code).toBe(-32601)
      expect(message.error?.message).toMatch(/tools\/frobnicate/)
    }
    finally {
      await session.close()
    }
  })

  it('modern: HTTP 404 with -32601', async () => {
    const { status, message } = await postModern(app.url, 'tools/frobnicate', {})
    expect(status).toBe(404)
    expect(message.error?.code).toBe(-32601)
  })
})

// ---------------------------------------------------------------------------------------------
// 3. Fuzzed modern retries

const FIELDS = new Set(['name', 'age', 'plan', 'tags', 'subscribe'])

/** An independent oracle: is `value` an answer `ask_form` must accept (and complete with)? */
function isValidAnswer(value: unknown): boolean {
  if (!isRecord(value)) return false
  const { action } = value
  if (action === 'decline' || action === 'cancel') return !Object.hasOwn(value, 'content')
  if (action !== 'accept') return false
  const content = value.content
  if (!isRecord(content)) return false
  if (Object.keys(content).some(key => !FIELDS.has(key))) return false
  const { name, age, plan, tags, subscribe } = content
  if (typeof name !== 'string' || name.length < 2) return false
  if (plan !== 'free' && plan !== 'pro') return false
  if (Object.hasOwn(content, 'age') && !(typeof age === 'number' && Number.isSafeInteger(age) && age >= 0)) return false
  if (Object.hasOwn(content, 'tags') && !(Array.isArray(tags) && tags.every(tag => tag === 'a' || tag === 'b' || tag === 'c'))) return false
  if (Object.hasOwn(content, 'subscribe') && typeof subscribe !== 'boolean') return false
  return true
}

/** Form answers close to valid: each field right, wrong or absent, so every verdict comes up. */
const formishArb = fc.record(
  {
    action: fc.constantFrom('accept', 'accept', 'accept', 'decline', 'cancel'),
    content: fc.record(
      {
        name: fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('Ada', 'Grace', 5, null, ['Ada'])),
        plan: fc.constantFrom('free', 'pro', 'pro', 'enterprise', 1),
        age: fc.oneof(fc.integer({ min: -3, max: 200 }), fc.constantFrom(1.5, '30', 2 ** 60)),
        tags: fc.array(fc.constantFrom('a', 'b', 'c', 'c', 'd'), { maxLength: 3 }),
        subscribe: fc.oneof(fc.boolean(), fc.constantFrom('yes', 0)),
        admin: fc.constant(true),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ['action'] },
)

/** Answers that look like elicitation results, valid or not, plus arbitrary JSON. */
const answerArb: Arbitrary<JsonValue> = fc.oneof(
  fc.jsonValue(),
  formishArb,
  formishArb,
  fc.record(
    {
      action: fc.oneof(fc.constantFrom('accept', 'decline', 'cancel', 'maybe', 'ACCEPT', ''), fc.jsonValue()),
      content: fc.oneof(
        fc.dictionary(fc.constantFrom('name', 'age', 'plan', 'tags', 'subscribe', 'admin', '__proto__', 'constructor'), fc.oneof(
          fc.constantFrom('Ada', 'x', 'pro', 'free', 'enterprise', 'a', 12, -1, 1.5, 2 ** 60, true, false, null),
          fc.array(fc.constantFrom('a', 'b', 'c', 'd', 7)),
          fc.jsonValue({ maxDepth: 2 }),
        )),
        fc.jsonValue({ maxDepth: 2 }),
      ),
    },
    { requiredKeys: ['action'] },
  ),
)

type Outcome = 'error' | 'input_required' | 'complete'

function outcomeOf(message: RpcMessage | { result?: Record<string, unknown>, error?: unknown }): Outcome {
  if (message.error !== undefined) return 'error'
  if (message.result?.resultType === 'input_required') return 'input_required'
  return 'complete'
}

describe('modern: fuzzed retries of ask_form', () => {
  const SEED = 20260728
  const RUNS = 50

  async function firstRound(label: string): Promise<string> {
    const { status, message } = await postModern(app.url, 'tools/call', { name: 'ask_form', arguments: { label } })
    expect(status).toBe(200)
    expect(message.result?.resultType).toBe('input_required')
    return String(message.result?.requestState)
  }

  function retry(label: string, extra: Record<string, unknown>) {
    return postModern(app.url, 'tools/call', { name: 'ask_form', arguments: { label }, ...extra })
  }

  it('random answers under q0: never 5xx, complete only for valid answers', async () => {
    const state = await firstRound('fuzz-q0')
    const seen: Record<Outcome, number> = { error: 0, input_required: 0, complete: 0 }
    await fc.assert(fc.asyncProperty(answerArb, async (answer) => {
      const { status, message } = await retry('fuzz-q0', { requestState: state, inputResponses: { q0: answer } })
      expect(status).toBeLessThan(500)
      const outcome = outcomeOf(message)
      seen[outcome] += 1
      if (isValidAnswer(answer)) {
        expect(outcome).toBe('complete')
        expect(JSON.parse(textOf(message.result)).action).toBe(isRecord(answer) ? answer.action : undefined)
      }
      else {
        expect(outcome).not.toBe('complete')
      }
    }), { numRuns: RUNS, seed: SEED, endOnFailure: true })
    console.info(`[hostile] q0 fuzz outcomes: ${JSON.stringify(seen)}`)
    expect(seen.error + seen.input_required + seen.complete).toBe(RUNS)
    // The seed is fixed: the generators reach every verdict (malformed, invalid content, valid).
    expect(Math.min(seen.error, seen.input_required, seen.complete)).toBeGreaterThan(0)
  }, 60_000)

  it('random whole inputResponses: never 5xx, complete only with a valid q0', async () => {
    const state = await firstRound('fuzz-all')
    const responsesArb = fc.oneof(fc.jsonValue(), fc.dictionary(fc.constantFrom('q0', 'q1', 'zzz', '__proto__'), answerArb))
    await fc.assert(fc.asyncProperty(responsesArb, async (inputResponses) => {
      const { status, message } = await retry('fuzz-all', { requestState: state, inputResponses })
      expect(status).toBeLessThan(500)
      const outcome = outcomeOf(message)
      const valid = isRecord(inputResponses) && Object.hasOwn(inputResponses, 'q0') && isValidAnswer(inputResponses.q0)
      if (valid) expect(outcome).toBe('complete')
      else expect(outcome).not.toBe('complete')
    }), { numRuns: RUNS, seed: SEED + 1, endOnFailure: true })
  }, 60_000)

  it('random requestState: never 5xx, never complete, and the handler never runs', async () => {
    const state = await firstRound('fuzz-state')
    const before = await runsOf(app, 'ask_form:fuzz-state')
    expect(before).toBe(1)
    const [version, body, mac] = state.split('.')
    const stateArb = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.base64String().map(text => `nme1.${text}.${text}`),
      fc.jsonValue().map(value => `nme1.${Buffer.from(JSON.stringify(value)).toString('base64url')}.${mac}`),
      fc.tuple(fc.nat({ max: state.length - 1 }), fc.string({ minLength: 1, maxLength: 1 })).map(([at, char]) => `${state.slice(0, at)}${char}${state.slice(at + 1)}`)
        .filter(mutated => mutated !== state),
      fc.constantFrom(`${version}.${body}`, `${version}..${mac}`, `${state}.`, `${body}.${mac}`, state.toUpperCase()),
    )
    await fc.assert(fc.asyncProperty(stateArb, async (requestState) => {
      const { status, message } = await retry('fuzz-state', { requestState, inputResponses: { q0: { action: 'accept', content: { name: 'Ada', plan: 'pro' } } } })
      expect(status).toBeLessThan(500)
      expect(outcomeOf(message)).toBe('error')
      expect(message.error?.code).toBe(-32602)
    }), { numRuns: RUNS, seed: SEED + 2, endOnFailure: true })
    expect(await runsOf(app, 'ask_form:fuzz-state')).toBe(before)
  }, 60_000)

  it('is still alive and serving afterwards', async () => {
    expect(app.process.exitCode).toBeNull()
    const state = await firstRound('fuzz-after')
    const { message } = await retry('fuzz-after', { requestState: state, inputResponses: { q0: { action: 'accept', content: { name: 'Ada', plan: 'pro' } } } })
    expect(outcomeOf(message)).toBe('complete')
    expect(JSON.parse(textOf(message.result))).toMatchObject({ action: 'accept', content: { name: 'Ada', plan: 'pro', subscribe: true } })
    expect(app.output()).not.toMatch(/uncaught|unhandled/i)
  })
})

// ---------------------------------------------------------------------------------------------
// 4 + 5. Load in both eras, then what is left behind

interface FlowResult { era: 'legacy' | 'modern', index: number, ms: number, sessionId?: string }

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  return error.cause === undefined ? error.message : `${error.message} (${describeError(error.cause)})`
}

/**
 * One complete ask_form flow; throws unless the tool returned exactly the answered content.
 * A legacy client that `terminates` ends its session with DELETE; the others just close, as
 * many hosts do, and leave the session to idle eviction.
 */
async function flow(server: RunningFixture, era: 'legacy' | 'modern', index: number, label: string, terminate: boolean): Promise<FlowResult> {
  const name = `${era === 'legacy' ? 'L' : 'M'}${index}`
  const answer = (): ScriptedAnswer => ({ action: 'accept', content: { name, plan: 'pro' } })
  const expected = { action: 'accept', content: { name, plan: 'pro', subscribe: true } }
  const started = performance.now()
  const since = () => `${Math.round(performance.now() - started)} ms`
  if (era === 'legacy') {
    const client = await connectLegacy(server.url, { answer }).catch((error: unknown) => {
      throw new Error(`legacy ${name}: connect failed after ${since()}: ${describeError(error)}`)
    })
    const transport = client.transport instanceof LegacyTransport ? client.transport : undefined
    try {
      const result = await client.callTool({ name: 'ask_form', arguments: { label } }).catch((error: unknown) => {
        throw new Error(`legacy ${name}: call failed after ${since()}: ${describeError(error)}`)
      })
      if (result.isError) throw new Error(`legacy ${name}: ${textOf(result)}`)
      expect(JSON.parse(textOf(result))).toEqual(expected)
      const sessionId = transport?.sessionId
      if (terminate) await transport?.terminateSession()
      return { era, index, ms: performance.now() - started, ...(sessionId !== undefined && !terminate && { sessionId }) }
    }
    finally {
      await client.close()
    }
  }
  const client = await connectModern(server.url, { answer })
  try {
    const result = await client.callTool({ name: 'ask_form', arguments: { label } })
    if (result.isError) throw new Error(`modern ${name}: ${textOf(result)}`)
    expect(JSON.parse(textOf(result))).toEqual(expected)
    return { era, index, ms: performance.now() - started }
  }
  finally {
    await client.close()
  }
}

/** Runs `tasks` with at most `limit` in flight; settles every one. */
async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<PromiseSettledResult<T>[]> {
  const results: PromiseSettledResult<T>[] = Array.from({ length: tasks.length })
  let next = 0
  async function worker(): Promise<void> {
    while (next < tasks.length) {
      const index = next++
      try {
        results[index] = { status: 'fulfilled', value: await tasks[index]!() }
      }
      catch (reason) {
        results[index] = { status: 'rejected', reason }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker))
  return results
}

/** Interleaved legacy and modern flows; `terminate(i)` picks the legacy clients that DELETE. */
function mixedFlows(server: RunningFixture, perEra: number, label: string, terminate: (index: number) => boolean): (() => Promise<FlowResult>)[] {
  return Array.from({ length: perEra * 2 }, (_, i) => {
    const index = Math.floor(i / 2)
    return () => flow(server, i % 2 === 0 ? 'legacy' : 'modern', index, label, terminate(index))
  })
}

function failures(results: PromiseSettledResult<FlowResult>[]): string[] {
  return results.flatMap(result => result.status === 'rejected' ? [describeError(result.reason)] : [])
}

const MB = 1024 * 1024
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`

describe('load: 500 concurrent elicitation flows in both eras, and no leaks', () => {
  const FLOWS_PER_ERA = 250
  const CONCURRENCY = 100
  let baseline: Internals
  let leftBehind: string | undefined

  it('warms up and takes a memory baseline with no session open', async () => {
    const warm = await pool(mixedFlows(loadApp, 20, 'warm', () => true), 20)
    expect(failures(warm)).toEqual([])
    baseline = await internals(loadApp)
    expect(baseline.gc).toBe(true)
    expect(baseline.pendingLegacy).toBe(0)
    expect(baseline.sessions).toEqual({ open: 0, active: 0 })
    console.info(`[hostile] baseline rss ${mb(baseline.rss)}, heapUsed ${mb(baseline.heapUsed)}`)
  }, 60_000)

  it(`completes ${FLOWS_PER_ERA} legacy + ${FLOWS_PER_ERA} modern flows (${CONCURRENCY} in flight) with the right content`, async () => {
    const started = performance.now()
    // Every other legacy client ends its session itself; the rest are left to idle eviction.
    const results = await pool(mixedFlows(loadApp, FLOWS_PER_ERA, 'load', index => index % 2 === 0), CONCURRENCY)
    const elapsed = performance.now() - started
    const errors = failures(results)
    const done = results.flatMap(result => result.status === 'fulfilled' ? [result.value] : [])
    const slowest = (era: FlowResult['era']) => Math.round(Math.max(0, ...done.filter(r => r.era === era).map(r => r.ms)))
    console.info(`[hostile] ${results.length} flows in ${(elapsed / 1000).toFixed(1)} s, ${errors.length} errors; slowest legacy ${slowest('legacy')} ms, modern ${slowest('modern')} ms`)
    expect(errors).toEqual([])
    expect(done.filter(r => r.era === 'legacy')).toHaveLength(FLOWS_PER_ERA)
    expect(done.filter(r => r.era === 'modern')).toHaveLength(FLOWS_PER_ERA)
    leftBehind = done.find(r => r.sessionId !== undefined)?.sessionId
    expect(leftBehind).toBeTruthy()
    // Legacy runs a handler once; modern runs it once per round (ask, then answer).
    expect(await runsOf(loadApp, 'ask_form:load')).toBe(FLOWS_PER_ERA + 2 * FLOWS_PER_ERA)
    expect(elapsed).toBeLessThan(60_000)
  }, 120_000)

  it('leaves nothing behind: no pending elicitation, sessions evicted (old id 404), heap and native memory back at the baseline', async () => {
    const rightAfter = await internals(loadApp)
    expect(rightAfter.pendingLegacy).toBe(0)
    console.info(`[hostile] sessions right after the load: ${JSON.stringify((await internals(loadApp)).sessions)}`)
    // Clients that closed without DELETE: their sessions go once idle.
    await until(async () => {
      const { sessions } = await internals(loadApp)
      return sessions.open === 0 && sessions.active === 0
    }, 'every session gone', 2 * IDLE_MS, 100)
    const stale = await fetch(loadApp.url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'mcp-session-id': leftBehind!, 'mcp-protocol-version': LEGACY },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    expect(stale.status).toBe(404)
    expect((await singleMessage(stale)).error?.message).toMatch(/unknown or expired/)
    const after = await internals(loadApp)
    console.info(`[hostile] after rss ${mb(after.rss)} (baseline ${mb(baseline.rss)}), heapUsed ${mb(after.heapUsed)} (baseline ${mb(baseline.heapUsed)}), heapTotal ${mb(after.heapTotal)} (baseline ${mb(baseline.heapTotal)}), native ${mb(after.native)} (baseline ${mb(baseline.native)})`)
    expect(after.pendingLegacy).toBe(0)
    // What a leak of ours would grow: the JS heap after a full GC, and memory JS objects hold
    // outside it. Both come back within a megabyte after this load on Node 20, 22 and 24.
    expect(after.heapUsed - baseline.heapUsed).toBeLessThan(5 * MB)
    expect(after.native - baseline.native).toBeLessThan(5 * MB)
    // RSS is the allocator's view and only bounded. V8 keeps the heap pages it committed under
    // load after a full GC (Node 24: heapTotal +70 MB here, all of it free), so what is bounded is
    // the resident memory outside V8's heap, which is where a native leak would show. The
    // allocator keeps much of that too (whole RSS +33 to +58 MB on Node 22, +140 MB on Node 24 of
    // which 70 outside the heap). The bound catches a leak outside the heap of a quarter megabyte
    // per flow.
    // Pages V8 committed under load and gives back later may stay resident in its own pool,
    // counted in RSS but no longer in heapTotal (one run: heapTotal 179 → 58 MB, RSS unchanged):
    // the heap is counted at the most it was committed after the load.
    const outsideHeap = (memory: Internals, heapTotal = memory.heapTotal) => memory.rss - heapTotal
    const outsideAfter = outsideHeap(after, Math.max(after.heapTotal, rightAfter.heapTotal))
    console.info(`[hostile] resident outside V8's heap: ${mb(outsideAfter)} (baseline ${mb(outsideHeap(baseline))}); heapTotal right after the load ${mb(rightAfter.heapTotal)}`)
    expect(outsideAfter - outsideHeap(baseline)).toBeLessThan(128 * MB)
    expect(loadApp.process.exitCode).toBeNull()
  }, 3 * IDLE_MS)
})
