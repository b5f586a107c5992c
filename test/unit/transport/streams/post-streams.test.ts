import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { JSONRPCMessage } from '@modelcontextprotocol/server'
import { WebResponseSink } from '../../../../src/runtime/server/transport/http/response-sink'
import { RESUME_GRACE_MS } from '../../../../src/runtime/server/transport/streams/journal'
import type { JournalSink } from '../../../../src/runtime/server/transport/streams/journal'
import { MAX_JOURNALS_PER_SESSION, MAX_JOURNAL_SIZE_PER_SESSION } from '../../../../src/runtime/server/transport/streams/journal-shelf'
import { PostStreams } from '../../../../src/runtime/server/transport/streams/post-streams'
import { JournalBudget } from '../../../../src/runtime/server/transport/streams/journal-budget'

// What one legacy session keeps for resumption is bounded: a finished stream goes a grace after
// its answer was written, and a session holds at most 32 streams and 4 MiB of events however many
// it opens. (Resumption itself, over HTTP with real clients: e2e/transport/resumption.test.ts.)
const headers = { 'mcp-session-id': 'session' }

function question(id: number, bulk = ''): JSONRPCMessage {
  return { jsonrpc: '2.0', id: `q${id}`, method: 'elicitation/create', params: { message: `question ${id}${bulk}`, requestedSchema: { type: 'object', properties: {} } } }
}

function answer(id: number): JSONRPCMessage {
  return { jsonrpc: '2.0', id, result: { content: [] } }
}

/** Opens a POST stream for request `id` and asks its question, which makes the stream resumable. */
function openAsking(streams: PostStreams, id: number, bulk = ''): WebResponseSink {
  const sink = new WebResponseSink()
  streams.open(sink, [id], headers)
  streams.send(question(id, bulk), id)
  return sink
}

/** Whether the stream `local.s<n>` can still be resumed (its journal is kept). */
function resumable(streams: PostStreams, n: number): boolean {
  return streams.resumeHere(`local.s${n}`, 0, new WebResponseSink(), headers)
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('the resumable streams of one session', () => {
  it('forgets a finished stream a grace after its answer was written, not 5 minutes later', () => {
    const streams = new PostStreams('local')
    streams.resumable = true
    openAsking(streams, 1)
    streams.send(answer(1), 1)
    vi.advanceTimersByTime(RESUME_GRACE_MS - 100)
    // Within the grace: a client whose connection dropped as the answer went out gets it again.
    expect(resumable(streams, 1)).toBe(true)
    vi.advanceTimersByTime(RESUME_GRACE_MS + 100)
    expect(resumable(streams, 1)).toBe(false)
  })

  it('keeps at most 32 streams: 200 streams of 50 KB each, answered, leave the newest 32', () => {
    const streams = new PostStreams('local')
    streams.resumable = true
    const bulk = 'x'.repeat(50_000)
    for (let id = 1; id <= 200; id++) {
      openAsking(streams, id, bulk)
      streams.send(answer(id), id)
    }
    const kept = Array.from({ length: 200 }, (_, index) => index + 1).filter(n => resumable(streams, n))
    expect(kept).toEqual(Array.from({ length: MAX_JOURNALS_PER_SESSION }, (_, index) => 200 - MAX_JOURNALS_PER_SESSION + 1 + index))
  })

  it('at the cap of streams still running, a new one stays plain (not resumable) and is still answered', async () => {
    const streams = new PostStreams('local')
    streams.resumable = true
    for (let id = 1; id <= MAX_JOURNALS_PER_SESSION; id++) openAsking(streams, id)
    const plain = openAsking(streams, 99)
    streams.send(answer(99), 99)
    const text = await (await plain.response).text()
    expect(text).not.toMatch(/^id: /m)
    expect(text).toContain('"id":99')
    expect(resumable(streams, MAX_JOURNALS_PER_SESSION + 1)).toBe(false)
    expect(resumable(streams, MAX_JOURNALS_PER_SESSION)).toBe(true)
  })

  it('keeps at most 4 MiB of events: a running stream that sends 10 MB sheds its oldest, keeping the newest', () => {
    const streams = new PostStreams('local')
    streams.resumable = true
    openAsking(streams, 1)
    const bulk = 'p'.repeat(100_000)
    for (let n = 0; n < 100; n++) streams.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `${n} ${bulk}` } }, 1)
    const sink = new WebResponseSink()
    expect(streams.resumeHere('local.s1', 0, sink, headers)).toBe(true)
    streams.send(answer(1), 1)
    return sink.response.then(response => response.text()).then((text) => {
      expect(text.length).toBeLessThan(MAX_JOURNAL_SIZE_PER_SESSION + 200_000)
      expect(text.length).toBeGreaterThan(MAX_JOURNAL_SIZE_PER_SESSION - 200_000)
      expect(text).toContain('"data":"99 ')
      expect(text).not.toContain('"data":"0 ')
      expect(text).toContain('"id":1,"result"')
    })
  })
})

describe('the Redis copies of a session\'s streams', () => {
  /** A sink as shared sessions give: it records which streams' copies were removed. */
  function recordingSink(): { sink: JournalSink, forgotten: string[] } {
    const forgotten: string[] = []
    return { sink: { opened: () => {}, appended: () => {}, forgotten: journal => void forgotten.push(journal.streamId) }, forgotten }
  }

  it('stay when the session closes here alone (a graceful shutdown, as in a rolling deploy): the instance the client resumes on answers from them', () => {
    const { sink, forgotten } = recordingSink()
    const streams = new PostStreams('local', sink)
    streams.resumable = true
    openAsking(streams, 1)
    openAsking(streams, 2)
    streams.send(answer(2), 2)
    streams.closeAll()
    expect(forgotten).toEqual([])
  })

  it('go when the session ended everywhere (DELETE, made room for, ended on another instance), and when a stream is dropped from the shelf', () => {
    const { sink, forgotten } = recordingSink()
    const streams = new PostStreams('local', sink)
    streams.resumable = true
    openAsking(streams, 1)
    streams.send(answer(1), 1)
    vi.advanceTimersByTime(RESUME_GRACE_MS + 100)
    expect(forgotten).toEqual(['local.s1'])
    openAsking(streams, 2)
    openAsking(streams, 3)
    streams.closeAll(true)
    expect(forgotten).toEqual(['local.s1', 'local.s2', 'local.s3'])
  })
})

describe('the resumable streams of every session together', () => {
  // The per-session bounds alone let 1,000 sessions (sessions.max) keep 4 GiB: the process's
  // budget (mcp.sessions.maxResumableBytes) bounds them all, whatever each session does.
  const budgetBytes = 16 * 1024 * 1024

  /** Resumes stream `streamId` from its start, ends it with its answer, and reads what came. */
  async function replayed(streams: PostStreams, streamId: string, id: number): Promise<string> {
    const sink = new WebResponseSink()
    expect(streams.resumeHere(streamId, 0, sink, headers)).toBe(true)
    streams.send(answer(id), id)
    return (await sink.response).text()
  }

  it('keep at most the process budget: 24 sessions each sending 4 MB, close to their own 4 MiB, keep under 16 MiB', async () => {
    const budget = new JournalBudget(budgetBytes, 'oldest')
    const sessions = Array.from({ length: 24 }, (_, n) => {
      const streams = new PostStreams(`i${n}`, undefined, budget)
      streams.resumable = true
      return streams
    })
    const bulk = 'p'.repeat(100_000)
    for (const [n, streams] of sessions.entries()) {
      openAsking(streams, 1)
      for (let k = 0; k < 40; k++) streams.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `${n}/${k} ${bulk}` } }, 1)
      expect(budget.size).toBeLessThanOrEqual(budgetBytes)
    }
    const texts = await Promise.all(sessions.map((streams, n) => replayed(streams, `i${n}.s1`, 1)))
    const kept = texts.reduce((sum, text) => sum + text.length, 0)
    // (The SSE framing adds about 40 characters an event to what the budget counts.)
    expect(kept).toBeLessThan(budgetBytes + 24 * 1_000)
    expect(kept).toBeGreaterThan(budgetBytes - 200_000)
    // Every stream, still running when the budget was reached, resumed and got its answer; the
    // oldest gave up their events first, and the newest session kept all of its own.
    for (const text of texts) expect(text).toContain('"id":1,"result"')
    expect(texts[0]).not.toContain('"data":"0/0 ')
    for (let k = 0; k < 40; k++) expect(texts[23]).toContain(`"data":"23/${k} `)
  })

  it('forget finished streams first, those finished longest ago first, in any session', () => {
    const budget = new JournalBudget(budgetBytes, 'oldest')
    const sessions = Array.from({ length: 8 }, (_, n) => {
      const streams = new PostStreams(`i${n}`, undefined, budget)
      streams.resumable = true
      return streams
    })
    const bulk = 'x'.repeat(3_000_000)
    // Session 0's stream keeps running; sessions 1 to 7 each finish one stream of 3 MB.
    openAsking(sessions[0]!, 1)
    for (let n = 1; n < 8; n++) {
      openAsking(sessions[n]!, 1, bulk)
      sessions[n]!.send(answer(1), 1)
    }
    expect(budget.size).toBeLessThanOrEqual(budgetBytes)
    const resumableNow = sessions.map((streams, n) => streams.resumeHere(`i${n}.s1`, 0, new WebResponseSink(), headers))
    expect(resumableNow).toEqual([true, false, false, true, true, true, true, true])
  })
})
