import { describe, expect, it } from 'vitest'
import { QUESTION_NOTE, takeQuestionNote } from '../../../../src/runtime/server/tasks/store/question-note'
import { takeOnce } from '../../../../src/runtime/server/cluster/mailbox'

const RELATED = 'io.modelcontextprotocol/related-task'

describe('a legacy task question\'s note to its transport', () => {
  it('is taken off the request, the rest of its _meta kept, and read back', () => {
    const note = { taskId: 't1', key: 'confirm', q: 'digest-of-the-question', expiresAt: 1_900_000_000_000 }
    const request = { jsonrpc: '2.0' as const, id: 'abc.3', method: 'elicitation/create', params: { message: 'Ship?', _meta: { [RELATED]: { taskId: 't1' }, [QUESTION_NOTE]: note } } }
    const taken = takeQuestionNote(request)
    expect(taken.note).toEqual(note)
    expect(taken.request).toEqual({ jsonrpc: '2.0', id: 'abc.3', method: 'elicitation/create', params: { message: 'Ship?', _meta: { [RELATED]: { taskId: 't1' } } } })
    // The caller's object is left as it was.
    expect(request.params._meta[QUESTION_NOTE]).toBe(note)
  })

  it('leaves a request without one untouched, and drops a malformed one without reading it', () => {
    const plain = { jsonrpc: '2.0' as const, id: 1, method: 'ping' }
    expect(takeQuestionNote(plain)).toEqual({ request: plain })
    const malformed = takeQuestionNote({ jsonrpc: '2.0' as const, id: 2, method: 'elicitation/create', params: { _meta: { [QUESTION_NOTE]: { taskId: 't1' } } } })
    expect(malformed.note).toBeUndefined()
    expect(malformed.request.params?._meta).toEqual({})
  })
})

describe('a tagged message taken once by its receiver', () => {
  it('is handled once however often it comes, and only counts as taken when handled', () => {
    const handled = new Set<string>()
    let runs = 0
    expect(takeOnce(handled, 'a', () => false)).toBe(false)
    expect(takeOnce(handled, 'a', () => ++runs > 0)).toBe(true)
    expect(takeOnce(handled, 'a', () => ++runs > 0)).toBe(true)
    expect(runs).toBe(1)
  })

  it('remembers a bounded number of tags, the oldest forgotten first', () => {
    const handled = new Set<string>()
    for (let i = 0; i < 600; i++) takeOnce(handled, `t${i}`, () => true)
    expect(handled.size).toBe(512)
    expect(handled.has('t0')).toBe(false)
    expect(handled.has('t599')).toBe(true)
  })
})
