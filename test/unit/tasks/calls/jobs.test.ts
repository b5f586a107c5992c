import { ProtocolError } from '@modelcontextprotocol/server'
import { describe, expect, it } from 'vitest'
import { endedResult, jobBindingOf, runningResult } from '../../../../src/runtime/server/tasks/calls/jobs'
import type { McpRequestScope } from '../../../../src/runtime/server/common/context'
import { moveTask } from '../../../../src/runtime/server/tasks/store/record'
import { TaskTable } from '../../../../src/runtime/server/tasks/store/table'
import { JOB_META } from '../../../../src/runtime/server/tasks/store/wire'

// What a job's call answers, without HTTP: which calls become jobs, and the results' shapes.

const LIMITS = { ttlMs: 60_000, maxTtlMs: 60_000, maxAnonymousTtlMs: 30_000, minTtlMs: 0, pollIntervalMs: 2000, maxPerPrincipal: 2, max: 5, maxResultBytes: 2000, maxArgumentBytes: 100, maxCapabilitiesBytes: 100, maxAnswerBytes: 100, detachAfterMs: 30_000 }

function record() {
  return new TaskTable(LIMITS).create({ principal: 'ana' }, 'modern', 'report', { arguments: '{}' })
}

const scope = (fields: Partial<Pick<McpRequestScope, 'principal' | 'sessionId'>>): McpRequestScope => ({ route: '/mcp', era: 'modern', ...fields } as McpRequestScope)

describe('which calls become jobs', () => {
  const optional = { taskSupport: 'optional' as const }

  it('an optional tool called by a caller told apart (a principal, a session), without tasks, with a limit', () => {
    expect(jobBindingOf(scope({ principal: 'ana' }), 'report', optional, { n: 1 }, 30_000, false)).toEqual(expect.any(String))
    expect(jobBindingOf(scope({ sessionId: 's1' }), 'report', optional, { n: 1 }, 30_000, false)).toEqual(expect.any(String))
  })

  it('not an anonymous 2026-07-28 caller, a tool that is not optional, a limit of 0, nor a client that declared tasks', () => {
    expect(jobBindingOf(scope({}), 'report', optional, {}, 30_000, false)).toBeUndefined()
    expect(jobBindingOf(scope({ principal: 'ana' }), 'report', { taskSupport: 'forbidden' }, {}, 30_000, false)).toBeUndefined()
    expect(jobBindingOf(scope({ principal: 'ana' }), 'report', undefined, {}, 30_000, false)).toBeUndefined()
    expect(jobBindingOf(scope({ principal: 'ana' }), 'report', optional, {}, 0, false)).toBeUndefined()
    expect(jobBindingOf(scope({ sessionId: 's1' }), 'report', optional, {}, 30_000, true)).toBeUndefined()
  })

  it('the same binding for the same caller, tool and arguments (in any key order); another for anything else', () => {
    const ana = jobBindingOf(scope({ principal: 'ana' }), 'report', optional, { a: 1, b: 2 }, 30_000, false)
    expect(jobBindingOf(scope({ principal: 'ana' }), 'report', optional, { b: 2, a: 1 }, 30_000, false)).toBe(ana)
    expect(jobBindingOf(scope({ principal: 'bob' }), 'report', optional, { a: 1, b: 2 }, 30_000, false)).not.toBe(ana)
    expect(jobBindingOf(scope({ principal: 'ana' }), 'report', optional, { a: 1, b: 3 }, 30_000, false)).not.toBe(ana)
    expect(jobBindingOf(scope({ principal: 'ana' }), 'other', optional, { a: 1, b: 2 }, 30_000, false)).not.toBe(ana)
  })
})

describe('a job\'s results', () => {
  it('"it goes on": words for the model, its state in _meta, never structuredContent', () => {
    const task = record()
    task.statusMessage = 'Built (1/3)'
    const result = runningResult(task, 'report', false)
    expect(result.content).toEqual([{ type: 'text', text: 'The job "report" goes on in the background (Built (1/3)). Call "report" again with the same arguments to see its progress, and its result once it is done (no sooner than every 2 s).' }])
    expect(result).not.toHaveProperty('isError')
    expect(result).not.toHaveProperty('structuredContent')
    expect(result._meta?.[JOB_META]).toMatchObject({ taskId: task.id, status: 'working', statusMessage: 'Built (1/3)', pollIntervalMs: 2000 })
  })

  it('a typed tool\'s is isError (the SDK clients refuse a typed result without structuredContent) and says it is no failure', () => {
    const result = runningResult(record(), 'report', true)
    expect(result.isError).toBe(true)
    expect(result).not.toHaveProperty('structuredContent')
    expect(JSON.stringify(result.content)).toContain('This is not a failure')
  })

  it('a question that waits: named in words, listed in _meta', () => {
    const task = record()
    task.status = 'input_required'
    task.questions.q0 = { method: 'elicitation/create', params: { message: 'Release it?', requestedSchema: { type: 'object', properties: {} } } }
    const result = runningResult(task, 'report', false)
    expect(JSON.stringify(result.content)).toContain('waits for an answer to \\"Release it?\\"')
    expect(result._meta?.[JOB_META]).toMatchObject({ status: 'input_required', inputRequests: { q0: { method: 'elicitation/create' } } })
  })

  it('ended: its result with its state added to the result\'s own _meta; a protocol error as one; else a tool error saying why', () => {
    const done = record()
    moveTask(done, 'completed')
    done.result = { content: [{ type: 'text', text: 'ok' }], structuredContent: { n: 1 }, _meta: { mine: true } }
    expect(endedResult(done)).toMatchObject({ content: [{ type: 'text', text: 'ok' }], structuredContent: { n: 1 }, _meta: { mine: true, [JOB_META]: { status: 'completed' } } })
    const failed = record()
    moveTask(failed, 'failed', 'boom')
    failed.error = { code: -32603, message: 'boom' }
    expect(() => endedResult(failed)).toThrow(ProtocolError)
    const expired = record()
    moveTask(expired, 'failed', 'The task ran out of its time to live (60000 ms) and was stopped.')
    expect(endedResult(expired)).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('ran out of its time to live') }] })
  })
})
