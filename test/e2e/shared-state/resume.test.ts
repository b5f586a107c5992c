import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { connectLegacy, textOf } from '../../utils/clients'
import { useCluster } from '../../utils/cluster'
import { startCutProxy } from '../../utils/cut-proxy'
import { until } from '../../utils/until'
import { nextMessage, sseEvents } from '../../utils/raw-legacy'
import type { SseEvent } from '../../utils/raw-legacy'
import { instanceOfStream } from '../../../src/runtime/server/transport/streams/journal'
import { JSON_HEADERS, LEGACY } from '../../utils/raw'

// A legacy stream resumed (GET + Last-Event-ID) on another instance than the one running its
// request, with Redis between them. The instance dying is in shared-state/round-robin.test.ts.
const cluster = useCluster('shared-state', 2)
let connection: Redis | undefined
/** A plain connection to the cluster's Redis, to read what the instances keep there. */
const redis = () => (connection ??= new Redis(cluster().redis.url))
afterAll(() => connection?.disconnect())


/** Opens a raw 2025-11-25 session through the load balancer. */
async function openSession(): Promise<Record<string, string>> {
  const init = await fetch(cluster().url, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: { elicitation: { form: {}, url: {} } }, clientInfo: { name: 'raw', version: '1' } } }) })
  await init.text()
  const headers = { ...JSON_HEADERS, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': LEGACY }
  await fetch(cluster().url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) }).then(response => response.text())
  return headers
}

/**
 * Calls `ask_wait` on `url` as request `id` and drops the connection once its question came, as
 * a client whose connection is cut would: the priming event, the question and its request.
 */
async function askThenDrop(url: URL, headers: Record<string, string>, id: number, label: string): Promise<{ priming: SseEvent, question: SseEvent, asked: { id: string, method: string } }> {
  const controller = new AbortController()
  const call = await fetch(url, { method: 'POST', headers, signal: controller.signal, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ask_wait', arguments: { label } } }) })
  const events = sseEvents(call)
  const priming = await nextMessage(events)
  const question = await nextMessage(events)
  controller.abort()
  return { priming, question, asked: JSON.parse(question.data) as { id: string, method: string } }
}

/** `GET` + `Last-Event-ID` on `url`: the resumed stream's events. */
async function resumeAt(url: URL, headers: Record<string, string>, lastEventId: string, signal?: AbortSignal): Promise<AsyncGenerator<SseEvent>> {
  return sseEvents(await fetch(url, { headers: { ...headers, 'accept': 'text/event-stream', 'last-event-id': lastEventId }, signal }))
}

/** The person's answer to the question `askedId`, POSTed to `url`. */
function answerAt(url: URL, headers: Record<string, string>, askedId: string, x: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: askedId, result: { action: 'accept', content: { x } } }) })
}

/**
 * A URL flow on `url`, as request `id`: asked, accepted, then completed on that instance (its
 * completion is a GET-stream message raised there). Resolves with the flow's elicitation id.
 */
async function completeUrlFlowAt(url: URL, headers: Record<string, string>, id: number): Promise<string> {
  const call = sseEvents(await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ask_url_here', arguments: {} } }) }))
  let question: { id: string, params: { elicitationId: string } } | undefined
  while (!question) {
    const event = await nextMessage(call)
    if (event.data.includes('elicitation/create')) question = JSON.parse(event.data) as typeof question
  }
  await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: question!.id, result: { action: 'accept' } }) })
  const done = await (await fetch(new URL(`/complete?id=${question!.params.elicitationId}`, url))).json() as { done: boolean }
  expect(done.done).toBe(true)
  return question!.params.elicitationId
}

describe('a legacy stream resumed on another instance, through Redis', () => {
  it('gets the events it missed and the live ones from the instance that runs the call', async () => {
    const [first, second] = cluster().instances.map(instance => instance.url)
    const headers = await openSession()
    // The call runs on the first instance; its connection drops once the question came.
    const { priming, question, asked } = await askThenDrop(first!, headers, 7, 'resumed-elsewhere')
    expect(priming).toMatchObject({ data: '' })
    expect(priming.id).toMatch(/^[a-z0-9]+\.s\d+_0$/)
    expect(asked.method).toBe('elicitation/create')
    // The client comes back on the second instance, from the priming event: the question is
    // sent again, then the answer (given there too) brings the result from the first.
    const resumed = await fetch(second!, { headers: { ...headers, 'accept': 'text/event-stream', 'last-event-id': priming.id! } })
    expect(resumed.status).toBe(200)
    const again = sseEvents(resumed)
    expect(await nextMessage(again)).toEqual({ id: priming.id, data: '' })
    const replayed = await nextMessage(again)
    expect(replayed.id).toBe(question.id)
    expect(JSON.parse(replayed.data)).toMatchObject({ id: asked.id, method: 'elicitation/create' })
    const answer = await answerAt(second!, headers, asked.id, 'from afar')
    expect(answer.status).toBe(202)
    const result = await nextMessage(again)
    expect(result.id).toMatch(/_2$/)
    expect(JSON.parse(result.data)).toMatchObject({ id: 7, result: { content: [{ type: 'text', text: 'accept' }] } })
    expect((await again.next()).done).toBe(true)
    await fetch(cluster().url, { method: 'DELETE', headers })
  })

  it('a resumed stream is primed with the id it resumed from, so a client whose resumed connection drops before any event resumes again', async () => {
    const [first, second] = cluster().instances.map(instance => instance.url)
    const headers = await openSession()
    const { question, asked } = await askThenDrop(first!, headers, 8, 'resumed-twice')
    // Resumed on the second instance after the question: nothing new to send, so without a
    // priming event the client would have no id of this connection to resume from once more
    // (the SDKs then open a plain GET, and the call waits out its timeout).
    const cut = new AbortController()
    const primed = await nextMessage(await resumeAt(second!, headers, question.id!, cut.signal))
    expect(primed).toEqual({ id: question.id, data: '' })
    cut.abort()
    // From that id, once more, on the first instance: the answer brings the result there.
    const again = await resumeAt(first!, headers, primed.id!)
    expect(await nextMessage(again)).toEqual({ id: question.id, data: '' })
    const answer = await answerAt(second!, headers, asked.id, 'twice resumed')
    expect(answer.status).toBe(202)
    expect(JSON.parse((await nextMessage(again)).data)).toMatchObject({ id: 8, result: { content: [{ type: 'text', text: 'accept' }] } })
    await fetch(cluster().url, { method: 'DELETE', headers })
  })

  it('a resume on another instance leaves the connection the client holds here alone (its request may arrive after its client left it)', async () => {
    const [first, second] = cluster().instances.map(instance => instance.url)
    const headers = await openSession()
    const { priming, question, asked } = await askThenDrop(first!, headers, 9, 'held-here')
    const here = await resumeAt(first!, headers, question.id!)
    expect(await nextMessage(here)).toEqual({ id: question.id, data: '' })
    // The same stream resumed on the second instance from its start: the replayed question shows
    // that the first instance took that resume. Pub/sub is not ordered with the first instance's
    // own requests, so such a resume may be one its client already left; it must not cut `here`.
    const cut = new AbortController()
    const elsewhere = await resumeAt(second!, headers, priming.id!, cut.signal)
    expect(await nextMessage(elsewhere)).toEqual({ id: priming.id, data: '' })
    expect((await nextMessage(elsewhere)).id).toBe(question.id)
    cut.abort()
    const answer = await answerAt(second!, headers, asked.id, 'held')
    expect(answer.status).toBe(202)
    expect(JSON.parse((await nextMessage(here)).data)).toMatchObject({ id: 9, result: { content: [{ type: 'text', text: 'accept' }] } })
    await fetch(cluster().url, { method: 'DELETE', headers })
  })

  it('a resume superseded by another of the same stream still gets the events and ends with the stream (none polls on forever)', async () => {
    const [first, second] = cluster().instances.map(instance => instance.url)
    const headers = await openSession()
    const { priming, question, asked } = await askThenDrop(first!, headers, 10, 'twice-elsewhere')
    // Resumed twice on the second instance from the stream's start: each sees the question
    // replayed, so the first instance took both.
    const older = await resumeAt(second!, headers, priming.id!)
    expect(await nextMessage(older)).toEqual({ id: priming.id, data: '' })
    expect((await nextMessage(older)).id).toBe(question.id)
    const newer = await resumeAt(second!, headers, priming.id!)
    expect(await nextMessage(newer)).toEqual({ id: priming.id, data: '' })
    expect((await nextMessage(newer)).id).toBe(question.id)
    const answer = await answerAt(second!, headers, asked.id, 'both')
    expect(answer.status).toBe(202)
    for (const stream of [older, newer]) {
      expect(JSON.parse((await nextMessage(stream)).data)).toMatchObject({ id: 10, result: { content: [{ type: 'text', text: 'accept' }] } })
      expect((await stream.next()).done).toBe(true)
    }
    await fetch(cluster().url, { method: 'DELETE', headers })
  })

  it('the GET stream resumed on the other instance gets what was raised meanwhile on the first', async () => {
    const [first, second] = cluster().instances.map(instance => instance.url)
    const headers = await openSession()
    const controller = new AbortController()
    const get = await fetch(first!, { headers: { ...headers, accept: 'text/event-stream' }, signal: controller.signal })
    const priming = await nextMessage(sseEvents(get))
    expect(priming.id).toMatch(/^[a-z0-9]+\.g\d+_0$/)
    controller.abort()
    // A URL flow on the first instance, completed there while the GET stream is closed.
    const elicitationId = await completeUrlFlowAt(first!, headers, 3)
    const resumed = sseEvents(await fetch(second!, { headers: { ...headers, 'accept': 'text/event-stream', 'last-event-id': priming.id! } }))
    const missed = await nextMessage(resumed)
    expect(missed.id).toBe(priming.id!.replace(/_0$/, '_1'))
    expect(JSON.parse(missed.data)).toMatchObject({ method: 'notifications/elicitation/complete', params: { elicitationId } })
    // Then the second instance's own journal begins.
    expect((await nextMessage(resumed)).id).toMatch(/\.g\d+_0$/)
    await resumed.return(undefined)
    await fetch(cluster().url, { method: 'DELETE', headers })
  })

  it('a GET stream taken on the other instance ends the connection still open on the first, which stops keeping its events', async () => {
    const [first, second] = cluster().instances.map(instance => instance.url)
    const headers = await openSession()
    const held = sseEvents(await fetch(first!, { headers: { ...headers, accept: 'text/event-stream' } }))
    const priming = await nextMessage(held)
    // The client comes back on the second instance while its old connection is still open on the
    // first (a proxy that has not noticed the drop yet): the second takes the stream over.
    const taken = await resumeAt(second!, headers, priming.id!)
    const primed = await nextMessage(taken)
    expect(primed.id).toMatch(/\.g\d+_0$/)
    expect(instanceOfStream(primed.id!)).not.toBe(instanceOfStream(priming.id!))
    // The first learns it through Redis: its connection ends (the ordering the rest relies on).
    let ended = false
    void held.next().then(item => { ended = item.done === true }, () => {})
    await until(() => ended, 'end of the first instance\'s GET connection', 10_000)
    // What the first raises now reaches the client on the second, and the first keeps no copy of
    // it: its journal's list in Redis still holds only its head (the stream's requests).
    const elicitationId = await completeUrlFlowAt(first!, headers, 4)
    const relayed = await nextMessage(taken)
    expect(relayed.id).toBe(primed.id!.replace(/_0$/, '_1'))
    expect(JSON.parse(relayed.data)).toMatchObject({ method: 'notifications/elicitation/complete', params: { elicitationId } })
    const journalOfFirst = priming.id!.replace(/_0$/, '')
    expect(await redis().llen(`nuxt-mcp:/mcp:events:${headers['mcp-session-id']}:${journalOfFirst}`)).toBe(1)
    await taken.return(undefined)
    await fetch(cluster().url, { method: 'DELETE', headers })
  })

  it('v1 Client: a connection cut after the question still brings the result, whichever instance the client resumes on', async () => {
    const proxy = await startCutProxy(cluster().url)
    try {
      for (const label of ['cut-1', 'cut-2']) {
        const client = await connectLegacy(proxy.url, {
          answer: async () => {
            proxy.cut()
            await new Promise(resolve => setTimeout(resolve, 200))
            return { action: 'accept', content: { x: label } }
          },
        })
        expect(textOf(await client.callTool({ name: 'ask_wait', arguments: { label } }))).toBe('accept')
        await client.close()
      }
      expect(proxy.heads.filter(head => /^GET /.test(head) && /\r\nlast-event-id: /i.test(head)).length).toBeGreaterThanOrEqual(2)
    }
    finally {
      await proxy.close()
    }
  })
})

// Last: it stops an instance.
describe('a legacy stream whose instance is stopped gracefully (SIGTERM, as in a rolling deploy)', () => {
  it('is answered on the other instance with "stopped before it answered", from the copy the stopped one left in Redis', async () => {
    const [first, second] = cluster().instances
    const headers = await openSession()
    const { question } = await askThenDrop(first!.url, headers, 7, 'deploy')
    // Nitro's close hook closes every session here; the session lives on in Redis, and so must
    // the copy of its stream: the instance that takes the client over answers from it.
    await first!.stop()
    // Nor does it try to remove them (with Redis already closed, each try was logged as lost).
    expect(first!.output()).not.toMatch(/lost/)
    const started = Date.now()
    const resumed = await resumeAt(second!.url, headers, question.id!, AbortSignal.timeout(25_000))
    const messages: { id?: unknown, error?: { message?: string } }[] = []
    for await (const event of resumed) if (event.data) messages.push(JSON.parse(event.data) as typeof messages[number])
    expect(messages).toContainEqual(expect.objectContaining({ id: 7, error: expect.objectContaining({ message: expect.stringMatching(/The server instance that ran this request \([a-z0-9]+\) stopped before it answered/) }) }))
    expect(Date.now() - started).toBeLessThan(20_000)
  }, 60_000)
})
