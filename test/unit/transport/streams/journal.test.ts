import { describe, expect, it } from 'vitest'
import { StreamJournal, eventIdOf, instanceOfStream, parseEventId } from '../../../../src/runtime/server/transport/streams/journal'
import { parseEnvelope } from '../../../../src/runtime/server/transport/shared/envelopes'

describe('a resumable stream\'s journal', () => {
  it('numbers events after the priming event 0, and replays those after a given one', () => {
    const journal = new StreamJournal('abc.s3', [7])
    expect(journal.primingId).toBe('abc.s3_0')
    journal.record({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } })
    journal.record({ jsonrpc: '2.0', id: 'abc.0', method: 'elicitation/create', params: {} })
    const answer = journal.record({ jsonrpc: '2.0', id: 7, result: { content: [] } })
    expect(eventIdOf(journal.streamId, answer.seq)).toBe('abc.s3_3')
    expect(journal.after(1).map(event => event.seq)).toEqual([2, 3])
  })

  it('copies every event to its sink, the opening included', () => {
    const seen: string[] = []
    const journal = new StreamJournal('abc.s1', [1], { opened: j => seen.push(`opened ${j.streamId}`), appended: (_j, event) => seen.push(`event ${event.seq}`) })
    journal.record({ jsonrpc: '2.0', id: 1, result: {} })
    expect(seen).toEqual(['opened abc.s1', 'event 1'])
  })

  it('reads back only event ids it could have made', () => {
    expect(parseEventId('abc.s12_4')).toEqual({ streamId: 'abc.s12', seq: 4 })
    expect(instanceOfStream('abc.s12')).toBe('abc')
    for (const foreign of ['', 'nonsense', 'abc_4', 'abc.s1_', 'ABC.s1_2', 'abc.s1_2 ']) expect(parseEventId(foreign)).toBeUndefined()
  })
})

describe('envelopes between instances', () => {
  it('reads back each kind, and ignores what is not one of ours', () => {
    expect(parseEnvelope(JSON.stringify({ kind: 'resume', sessionId: 's', streamId: 'a.s1', after: 2, to: 'b', tag: 'b.r1' }))).toEqual({ kind: 'resume', sessionId: 's', streamId: 'a.s1', after: 2, to: 'b', tag: 'b.r1' })
    expect(parseEnvelope(JSON.stringify({ kind: 'stream-event', tag: 'b.r1', seq: 3, message: { jsonrpc: '2.0', id: 1, result: {} } }))).toMatchObject({ kind: 'stream-event', seq: 3 })
    expect(parseEnvelope(JSON.stringify({ kind: 'resume', sessionId: 's', streamId: 'a.s1', after: '2', to: 'b', tag: 'b.r1' }))).toBeUndefined()
    expect(parseEnvelope(JSON.stringify({ kind: 'toString' }))).toBeUndefined()
    expect(parseEnvelope('not json')).toBeUndefined()
    expect(parseEnvelope(JSON.stringify({ kind: 'response', sessionId: 's', message: { nope: true } }))).toBeUndefined()
  })
})
