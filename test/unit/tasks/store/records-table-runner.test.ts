import { inputRequired } from '@modelcontextprotocol/server'
import { describe, expect, it } from 'vitest'
import { McpElicitationError } from '../../../../src/runtime/server/elicitation/error'
import type { ParkedQuestion } from '../../../../src/runtime/server/elicitation/run'
import { moveTask, ownsTask } from '../../../../src/runtime/server/tasks/store/record'
import { TaskRunner } from '../../../../src/runtime/server/tasks/store/runner'
import { callRecordOf, TaskLimitError, TaskSizeError, TaskTable } from '../../../../src/runtime/server/tasks/store/table'
import type { TaskLimits } from '../../../../src/runtime/server/tasks/store/table'
import { detailedTask } from '../../../../src/runtime/server/tasks/store/wire'

// The tasks wing without HTTP: records, the table's bounds, and the runner's parked questions.

const LIMITS: TaskLimits = { ttlMs: 60_000, maxTtlMs: 60_000, maxAnonymousTtlMs: 30_000, minTtlMs: 0, pollIntervalMs: 500, maxPerPrincipal: 2, max: 5, maxResultBytes: 200, maxArgumentBytes: 100, maxCapabilitiesBytes: 100, maxAnswerBytes: 100 , detachAfterMs: 30_000}

function question(key: string, message = `${key}?`): ParkedQuestion {
  const requestedSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } }
  return { key, attempt: 1, push: { method: 'elicitation/create', params: { message, requestedSchema } }, request: inputRequired.elicit({ message, requestedSchema }), digest: `digest of ${message}` }
}

function setUp(era: 'legacy' | 'modern' = 'modern') {
  const table = new TaskTable(LIMITS)
  const runner = new TaskRunner(table)
  const record = table.create({ principal: 'ana' }, era, 'deploy', { arguments: '{}' })
  return { table, runner, record }
}

describe('task records', () => {
  it('never leave an ended status, and an ended task waits for nothing', () => {
    const { record } = setUp()
    record.questions.q0 = question('q0').request
    expect(moveTask(record, 'cancelled', 'stopped')).toBe(true)
    expect(record.questions).toEqual({})
    expect(moveTask(record, 'working')).toBe(false)
    expect(record).toMatchObject({ status: 'cancelled', statusMessage: 'stopped' })
  })
})

describe('an ended task', () => {
  it('keeps no call, steps or answers: only a takeover reads them, and an ended task is never taken over', () => {
    const { record } = setUp()
    record.call = { arguments: JSON.stringify({ padding: 'x'.repeat(50) }), capabilities: { elicitation: {} } }
    record.steps.lookup = { done: true, v: 'build-41' }
    record.answers.confirm = { q: 'digest of confirm?', r: { action: 'accept', content: { ok: true } } }
    moveTask(record, 'completed')
    expect(record.call).toEqual({ arguments: '{}' })
    expect(record.steps).toEqual({})
    expect(record.answers).toEqual({})
  })

  it('keeps its answers in nuxi dev only, where the DevTools tab shows them', () => {
    const table = new TaskTable(LIMITS, { keepEndedAnswers: true })
    const runner = new TaskRunner(table)
    const record = table.create({ principal: 'ana' }, 'modern', 'deploy', { arguments: '{"build":"41"}' })
    record.answers.confirm = { q: 'digest of confirm?', r: { action: 'accept', content: { ok: true } } }
    runner.cancel(record)
    expect(record.answers.confirm?.r).toEqual({ action: 'accept', content: { ok: true } })
    expect(record.call).toEqual({ arguments: '{}' })
    table.clear()
  })
})

describe('the task table', () => {
  it('shows a task to its owner only, and stops a principal at its cap naming the option', () => {
    const { table, record } = setUp()
    expect(table.get(record.id, { principal: 'ana' })).toBe(record)
    expect(table.get(record.id, { principal: 'bob' })).toBeUndefined()
    expect(table.get(record.id, { principal: 'ana', sessionId: 's1' })).toBeUndefined()
    table.create({ principal: 'ana' }, 'modern', 'deploy', { arguments: '{}' })
    expect(() => table.create({ principal: 'ana' }, 'modern', 'deploy', { arguments: '{}' })).toThrow(TaskLimitError)
    expect(() => table.create({ principal: 'ana' }, 'modern', 'deploy', { arguments: '{}' })).toThrow(/mcp\.tasks\.maxPerPrincipal = 2/)
    // Another principal has its own count; a discarded task frees its place.
    expect(table.create({ principal: 'bob' }, 'modern', 'deploy', { arguments: '{}' }).owner.principal).toBe('bob')
    table.discard(record.id)
    expect(table.create({ principal: 'ana' }, 'modern', 'deploy', { arguments: '{}' }).status).toBe('working')
    table.clear()
    expect(table.size).toBe(0)
  })

  it('counts running tasks only: an ended one frees its caller\'s place at once, and stays readable', () => {
    const { table, record } = setUp()
    table.create({ principal: 'ana' }, 'modern', 'deploy', { arguments: '{}' })
    expect(() => table.create({ principal: 'ana' }, 'modern', 'deploy', { arguments: '{}' })).toThrow(/an ended task no longer counts/)
    moveTask(record, 'completed')
    expect(table.create({ principal: 'ana' }, 'modern', 'deploy', { arguments: '{}' }).status).toBe('working')
    expect(table.get(record.id, { principal: 'ana' })).toBe(record)
    table.clear()
  })

  it('counts anonymous callers by client address, binds a modern anonymous task to it, and cuts its ttl', () => {
    const table = new TaskTable(LIMITS)
    const first = table.create({ principal: '', address: '10.0.0.1' }, 'modern', 'deploy', { arguments: '{}' }, 60_000)
    expect(first.ttlMs).toBe(30_000)
    table.create({ principal: '', address: '10.0.0.1' }, 'modern', 'deploy', { arguments: '{}' })
    expect(() => table.create({ principal: '', address: '10.0.0.1' }, 'modern', 'deploy', { arguments: '{}' })).toThrow(/mcp\.tasks\.maxPerPrincipal = 2/)
    expect(table.create({ principal: '', address: '10.0.0.2' }, 'modern', 'deploy', { arguments: '{}' }).status).toBe('working')
    expect(table.get(first.id, { principal: '', address: '10.0.0.1' })).toBe(first)
    expect(table.get(first.id, { principal: '', address: '10.0.0.2' })).toBeUndefined()
    // A legacy task is its session's: the session id is what the anonymous client holds.
    const legacy = table.create({ principal: '', sessionId: 's1', address: '10.0.0.3' }, 'legacy', 'deploy', { arguments: '{}' })
    expect(ownsTask(legacy, { principal: '', sessionId: 's1', address: '10.0.0.9' })).toBe(true)
    expect(ownsTask(legacy, { principal: '', sessionId: 's2', address: '10.0.0.3' })).toBe(false)
    table.clear()
  })

  it('stops at mcp.tasks.max running tasks; at the cap the oldest ended one is forgotten instead', () => {
    const table = new TaskTable(LIMITS)
    const first = table.create({ principal: 'p0' }, 'modern', 'deploy', { arguments: '{}' })
    moveTask(first, 'completed')
    for (let i = 1; i < 5; i++) table.create({ principal: `p${i}` }, 'modern', 'deploy', { arguments: '{}' })
    expect(table.create({ principal: 'late' }, 'modern', 'deploy', { arguments: '{}' }).status).toBe('working')
    expect(table.get(first.id, { principal: 'p0' })).toBeUndefined()
    expect(() => table.create({ principal: 'later' }, 'modern', 'deploy', { arguments: '{}' })).toThrow(/mcp\.tasks\.max = 5/)
    table.clear()
  })

  // Issue 48 review: "create 100, cancel 100" again and again filled tasks.max for everyone.
  it('never lets one caller\'s ended tasks refuse another caller: it keeps at most maxPerPrincipal of them', () => {
    const table = new TaskTable(LIMITS)
    const anonymous = { principal: '', address: '10.0.0.1' }
    for (let i = 0; i < 20; i++) moveTask(table.create(anonymous, 'modern', 'deploy', { arguments: '{}' }), 'cancelled')
    expect(table.list(anonymous).length).toBeLessThanOrEqual(LIMITS.maxPerPrincipal)
    expect(table.create({ principal: '', address: '10.0.0.2' }, 'modern', 'deploy', { arguments: '{}' }).status).toBe('working')
    expect(table.create({ principal: 'bob' }, 'modern', 'deploy', { arguments: '{}' }).status).toBe('working')
    table.clear()
  })

  it('keeps the arguments as sent and the capabilities within their sizes, naming the option', () => {
    expect(callRecordOf(LIMITS, { when: '2026-01-01' }, { sampling: {} })).toEqual({ arguments: '{"when":"2026-01-01"}', capabilities: { sampling: {} } })
    expect(() => callRecordOf(LIMITS, { padding: 'x'.repeat(200) }, undefined)).toThrow(TaskSizeError)
    expect(() => callRecordOf(LIMITS, { padding: 'x'.repeat(200) }, undefined)).toThrow(/mcp\.tasks\.maxArgumentBytes = 100/)
    expect(() => callRecordOf(LIMITS, {}, { experimental: { blob: 'x'.repeat(200) } })).toThrow(/mcp\.tasks\.maxCapabilitiesBytes = 100/)
  })

  it('raises a requested ttl shorter than minTtlMs to it, never above ttlMs nor an anonymous caller\'s bound', () => {
    const table = new TaskTable({ ...LIMITS, minTtlMs: 20_000 })
    // The MCP Inspector asks 60 s; here, with these limits, 1 s: the task gets the floor and says so.
    expect(table.create({ principal: 'fy' }, 'legacy', 'deploy', { arguments: '{}' }, 1000).ttlMs).toBe(20_000)
    expect(table.create({ principal: 'fy' }, 'legacy', 'deploy', { arguments: '{}' }, 45_000).ttlMs).toBe(45_000)
    // Asking nothing gets ttlMs, as before.
    expect(table.create({ principal: 'gy' }, 'legacy', 'deploy', { arguments: '{}' }).ttlMs).toBe(60_000)
    // The floor is at most what asking nothing gets.
    const short = new TaskTable({ ...LIMITS, ttlMs: 5000, minTtlMs: 20_000 })
    expect(short.create({ principal: 'hy' }, 'legacy', 'deploy', { arguments: '{}' }, 1000).ttlMs).toBe(5000)
    // An anonymous caller's bound still cuts it.
    const anonymous = new TaskTable({ ...LIMITS, minTtlMs: 50_000 })
    expect(anonymous.create({ principal: '', address: '203.0.113.9' }, 'modern', 'deploy', { arguments: '{}' }, 1000).ttlMs).toBe(30_000)
    for (const each of [table, short, anonymous]) each.clear()
  })

  it('bounds a requested ttl by maxTtlMs', () => {
    const { table } = setUp()
    expect(table.create({ principal: 'cy' }, 'legacy', 'deploy', { arguments: '{}' }, 10 * 60_000).ttlMs).toBe(60_000)
    table.clear()
  })
})

describe('the task runner', () => {
  it('parks a question in input_required until tasks/update answers it; keys not outstanding are ignored', async () => {
    const { runner, record, table } = setUp()
    const parked = runner.launch(record)
    const answer = parked.ask(question('q0'))
    expect(record.status).toBe('input_required')
    expect(detailedTask(record)).toMatchObject({ status: 'input_required', inputRequests: { q0: { method: 'elicitation/create' } } })
    runner.answer(record, { elsewhere: { action: 'accept' } })
    expect(record.status).toBe('input_required')
    runner.answer(record, { q0: { action: 'accept', content: { ok: true } } })
    // Settled at once, before the handler resumes: a tasks/get right after the ack lists nothing.
    expect(record.questions).toEqual({})
    expect(record.status).toBe('working')
    await expect(answer).resolves.toEqual({ action: 'accept', content: { ok: true } })
    expect(record.answers).toEqual({ q0: { q: 'digest of q0?', r: { action: 'accept', content: { ok: true } } } })
    table.clear()
  })

  it('keeps a key unique over the task\'s life: a question asked again gets a new one', async () => {
    const { runner, record, table } = setUp()
    const parked = runner.launch(record)
    const first = parked.ask(question('name'))
    runner.answer(record, { name: { action: 'accept', content: { ok: 'no' } } })
    await first
    const again = parked.ask({ ...question('name'), attempt: 2 })
    expect(Object.keys(record.questions)).toEqual(['name~2'])
    runner.answer(record, { 'name~2': { action: 'decline' } })
    await expect(again).resolves.toEqual({ action: 'decline' })
    table.clear()
  })

  it('cancels: cancelled at once, the waiting question fails as cancelled, the signal aborts, an ended task stays', async () => {
    const { runner, record, table } = setUp()
    const parked = runner.launch(record)
    const waiting = parked.ask(question('q0'))
    expect(runner.cancel(record)).toBe(true)
    expect(record.status).toBe('cancelled')
    await expect(waiting).rejects.toBeInstanceOf(McpElicitationError)
    await expect(waiting).rejects.toMatchObject({ code: 'cancelled' })
    expect(parked.signal.aborted).toBe(true)
    expect(runner.cancel(record)).toBe(false)
    runner.settleWith(record, Promise.resolve({ result: { content: [] } }))
    await runner.settled(record)
    expect(record.status).toBe('cancelled')
    table.clear()
  })

  it('ends failed when the result is larger than a task keeps, naming the option', async () => {
    const { runner, record, table } = setUp()
    runner.launch(record)
    runner.settleWith(record, Promise.resolve({ result: { content: [{ type: 'text', text: 'x'.repeat(500) }] } }))
    await runner.settled(record)
    expect(record).toMatchObject({ status: 'failed', error: { code: -32603, message: expect.stringContaining('mcp.tasks.maxResultBytes = 200') } })
    table.clear()
  })

  it('counts a tool error as failed on 2025-11-25, as completed on 2026-07-28', async () => {
    for (const [era, status] of [['legacy', 'failed'], ['modern', 'completed']] as const) {
      const { runner, record, table } = setUp(era)
      runner.launch(record)
      runner.settleWith(record, Promise.resolve({ result: { content: [{ type: 'text', text: 'boom' }], isError: true } }))
      await runner.settled(record)
      expect(record.status).toBe(status)
      expect(record.result).toMatchObject({ isError: true })
      table.clear()
    }
  })

  it('replays what a record kept when the handler runs again: answers are not asked again, finished steps do not run again', async () => {
    const { runner, record, table } = setUp()
    record.answers.q0 = { q: 'digest of q0?', r: { action: 'accept', content: { ok: true } } }
    record.steps.charge = { done: true, v: { id: 7 } }
    const parked = runner.launch(record)
    let ran = 0
    await expect(parked.once('charge', () => ++ran)).resolves.toEqual({ id: 7 })
    await expect(parked.ask(question('q0'))).resolves.toEqual({ action: 'accept', content: { ok: true } })
    expect(ran).toBe(0)
    expect(record.status).toBe('working')
    // A step its instance died in: nobody knows whether it happened, so the task does not guess.
    record.steps.ship = { running: true }
    await expect(parked.once('ship', () => ++ran)).rejects.toThrow(/once\("ship"\) was running when the instance that ran it stopped/)
    expect(ran).toBe(0)
    table.clear()
  })

  it('keeps what was answered before the task began: a later question with the same key is a new one, a re-run replays it', async () => {
    const { runner, record, table } = setUp()
    record.answers.who = { q: 'digest of who?', r: { action: 'accept', content: { name: 'Ada' } } }
    const parked = runner.launch(record, undefined, ['who'])
    const later = parked.ask(question('who', 'Who else?'))
    expect(Object.keys(record.questions)).toEqual(['who~2'])
    runner.cancel(record)
    await expect(later).rejects.toMatchObject({ code: 'cancelled' })
    const again = setUp()
    again.record.answers.who = { q: 'digest of who?', r: { action: 'accept', content: { name: 'Ada' } } }
    await expect(again.runner.launch(again.record).ask(question('who'))).resolves.toEqual({ action: 'accept', content: { name: 'Ada' } })
    table.clear()
    again.table.clear()
  })

  // Issue 48 review: the question adopted from before a takeover was still open under its key;
  // the answer to it, arriving late, went to the different question asked again under that key.
  it('drops a different question still open under its key from before a takeover: a late answer to it answers nothing', async () => {
    const { runner, record, table } = setUp()
    record.status = 'input_required'
    record.questions.deploy = question('deploy', 'Deploy build-41?').request
    record.digests.deploy = 'digest of Deploy build-41?'
    const parked = runner.launch(record)
    const asked = parked.ask(question('deploy', 'Deploy build-42?'))
    expect(Object.keys(record.questions)).toEqual(['deploy~2'])
    runner.answer(record, { deploy: { action: 'accept', content: { ok: true } } })
    expect(Object.keys(record.questions)).toEqual(['deploy~2'])
    expect(record.status).toBe('input_required')
    runner.answer(record, { 'deploy~2': { action: 'decline' } })
    await expect(asked).resolves.toEqual({ action: 'decline' })
    table.clear()
  })

  it('reuses a kept answer only for the same question: another one under its key is asked, under a new key', async () => {
    const { runner, record, table } = setUp()
    record.answers.deploy = { q: 'digest of Deploy build-41?', r: { action: 'accept', content: { ok: true } } }
    const parked = runner.launch(record)
    const asked = parked.ask(question('deploy', 'Deploy build-42?'))
    expect(record.status).toBe('input_required')
    expect(Object.keys(record.questions)).toEqual(['deploy~2'])
    runner.answer(record, { 'deploy~2': { action: 'decline' } })
    await expect(asked).resolves.toEqual({ action: 'decline' })
    expect(record.answers['deploy~2']).toEqual({ q: 'digest of Deploy build-42?', r: { action: 'decline' } })
    table.clear()
  })

  it('keeps no answer larger than mcp.tasks.maxAnswerBytes: the question fails, naming the option', async () => {
    const { runner, record, table } = setUp()
    const parked = runner.launch(record)
    const asked = parked.ask(question('q0'))
    runner.answer(record, { q0: { action: 'accept', content: { note: 'x'.repeat(200) } } })
    await expect(asked).rejects.toMatchObject({ code: 'invalid-response', message: expect.stringContaining('mcp.tasks.maxAnswerBytes = 100') })
    expect(record.answers).toEqual({})
    table.clear()
  })

  it('stops its handlers on shutdown without ending their tasks: another instance may take them over', async () => {
    const { runner, record, table } = setUp()
    const seen: string[] = []
    runner.watch(changed => seen.push(changed.status))
    const parked = runner.launch(record)
    const waiting = parked.ask(question('q0'))
    runner.shutdown()
    await expect(waiting).rejects.toMatchObject({ code: 'cancelled' })
    expect(parked.signal.aborted).toBe(true)
    runner.settleWith(record, Promise.resolve({ error: { code: -32603, message: 'stopped' } }))
    await runner.settled(record)
    table.clear()
    expect(record.status).toBe('input_required')
    expect(seen).toEqual(['input_required'])
  })
})
