import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { textOf } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { postModern } from '../../utils/raw'
import { until } from '../../utils/until'
import { openRawLegacy, singleMessage } from '../../utils/raw-legacy'
import { isRecord } from '../../../src/runtime/server/common/is-record'

/**
 * The bounds of tasks, through real requests: one caller stops at its cap with an error that names
 * the option, another caller is not affected, and the records go when their ttl is over (the
 * fixture's internal counter of task records, not the heap, says so exactly).
 */

const CAP = 1000
const SHORT_TTL_MS = 2000
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } }
let app: RunningFixture
// The same app with the defaults, behind a proxy it trusts (loopback): each anonymous caller
// names its address in X-Forwarded-For, as a client behind a real proxy would be seen.
let proxied: RunningFixture

beforeAll(async () => {
  ;[app, proxied] = await Promise.all([
    // No floor under a requested ttl here (tasks.minTtlMs, 10 minutes by default): the records
    // must go SHORT_TTL_MS after their creation.
    startFixture('elicitation', { NUXT_MCP_TASKS_MAX_PER_PRINCIPAL: String(CAP), NUXT_MCP_TASKS_MIN_TTL_MS: '0' }),
    startFixture('elicitation', { NUXT_MCP_TRUSTED_PROXIES: '127.0.0.1' }),
  ])
})
afterAll(async () => {
  await Promise.all([app?.stop(), proxied?.stop()])
})

async function taskRecords(): Promise<number> {
  const { message } = await postModern(app.url, 'tools/call', { name: 'internals', arguments: {} })
  const parsed: unknown = JSON.parse(textOf(message.result))
  if (!isRecord(parsed) || typeof parsed.tasks !== 'number') throw new Error(`unexpected internals: ${JSON.stringify(parsed)}`)
  return parsed.tasks
}

function createTask(user: string) {
  // Still running when the cap is reached: an ended task no longer counts against it.
  return postModern(app.url, 'tools/call', { name: 'task_wait', arguments: { ms: 600_000 } }, { capabilities: TASKS, headers: { 'x-user': user } })
}

/** An anonymous 2026-07-28 request from client address `address`, through the trusted proxy. */
function anonymous(address: string, method: string, params: Record<string, unknown>, capabilities: Record<string, unknown> = TASKS) {
  const headers: Record<string, string> = { 'x-forwarded-for': address }
  if (typeof params.taskId === 'string') headers['mcp-name'] = params.taskId
  return postModern(proxied.url, method, params, { capabilities, headers })
}

/** A task of `ms` milliseconds for the anonymous caller at `address`, and its id (throws when refused). */
async function anonymousTask(address: string, ms = 600_000): Promise<string> {
  const { message } = await anonymous(address, 'tools/call', { name: 'task_wait', arguments: { ms } })
  if (typeof message.result?.taskId !== 'string') throw new Error(`no task for ${address}: ${JSON.stringify(message.error ?? message.result)}`)
  return message.result.taskId
}

describe('task limits', () => {
  // The default ttl (an hour) keeps every task counted while the cap is reached, however slow the machine.
  it(`stops one caller at ${CAP} tasks with an error naming the option; another caller is not affected`, async () => {
    const before = await taskRecords()
    for (let batch = 0; batch < CAP / 50; batch++) {
      const created = await Promise.all(Array.from({ length: 50 }, () => createTask('mallory')))
      for (const { message } of created) expect(message.result).toMatchObject({ resultType: 'task', ttlMs: 3_600_000 })
    }
    const refused = await createTask('mallory')
    expect(refused.message.error).toMatchObject({ code: -32600, message: expect.stringContaining(`mcp.tasks.maxPerPrincipal = ${CAP}`) })
    expect(refused.message.error?.message).toContain('cancel')
    expect((await createTask('ada')).message.result).toMatchObject({ resultType: 'task' })
    expect(await taskRecords()).toBe(before + CAP + 1)
  }, 60_000)

  it(`holds no place for a call answered directly: ${CAP + 100} of them from one caller, then a task still created`, async () => {
    const before = await taskRecords()
    const quick = () => postModern(app.url, 'tools/call', { name: 'task_quick', arguments: { text: 'q' } }, { capabilities: TASKS, headers: { 'x-user': 'grace' } })
    for (let batch = 0; batch < (CAP + 100) / 50; batch++) {
      const answered = await Promise.all(Array.from({ length: 50 }, quick))
      for (const { message } of answered) expect(message.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Done: q' }] })
    }
    expect(await taskRecords()).toBe(before)
    expect((await createTask('grace')).message.result).toMatchObject({ resultType: 'task' })
  }, 60_000)

  it(`forgets ${CAP} tasks once the ttl their 2025-11-25 client asked for is over`, async () => {
    const before = await taskRecords()
    const session = await openRawLegacy(app)
    try {
      let id = 10
      for (let batch = 0; batch < CAP / 50; batch++) {
        const created = await Promise.all(Array.from({ length: 50 }, async () => singleMessage(await session.post({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'task_wait', arguments: { ms: 0 }, task: { ttl: SHORT_TTL_MS } } }))))
        for (const message of created) expect(message.result?.task).toMatchObject({ ttl: SHORT_TTL_MS })
      }
      // Each record goes SHORT_TTL_MS after its own creation, however long creating them all took.
      await until(async () => (await taskRecords()) === before, 'the task records to expire', 30_000, 100)
    }
    finally {
      await session.close()
    }
  }, 60_000)
})

describe('task limits of anonymous callers (by client address) and the size of what a task keeps', () => {
  // The case: one anonymous client fills its cap and cancels one; the cap counts it no
  // more, and another anonymous client (another address) was never under the first one's cap.
  it('counts anonymous callers by client address, and frees a cancelled task\'s place', async () => {
    const ids = await Promise.all(Array.from({ length: 100 }, () => anonymousTask('203.0.113.1')))
    const refused = await anonymous('203.0.113.1', 'tools/call', { name: 'task_wait', arguments: { ms: 600_000 } })
    expect(refused.message.error).toMatchObject({ code: -32600, message: expect.stringContaining('mcp.tasks.maxPerPrincipal = 100') })
    expect(refused.message.error?.message).toContain('cancel')
    // Another anonymous client is not under the first one's cap.
    expect(await anonymousTask('203.0.113.2')).toMatch(/^[0-9a-f-]{36}$/)
    // What the refusal said helps, helps: one cancelled, one place free at once.
    expect((await anonymous('203.0.113.1', 'tasks/cancel', { taskId: String(ids[0]) })).message.result).toMatchObject({ resultType: 'complete' })
    expect((await anonymous('203.0.113.1', 'tasks/get', { taskId: String(ids[0]) })).message.result).toMatchObject({ status: 'cancelled' })
    expect(await anonymousTask('203.0.113.1')).toMatch(/^[0-9a-f-]{36}$/)
    expect((await anonymous('203.0.113.1', 'tools/call', { name: 'task_wait', arguments: { ms: 600_000 } })).message.error).toMatchObject({ code: -32600 })
  }, 60_000)

  it('frees the place of a task that completed: 100 tasks that end, then more', async () => {
    const ids = await Promise.all(Array.from({ length: 100 }, () => anonymousTask('203.0.113.3', 1)))
    await until(async () => {
      const read = await Promise.all(ids.map(taskId => anonymous('203.0.113.3', 'tasks/get', { taskId })))
      return read.every(({ message }) => message.result?.status === 'completed')
    }, 'the 100 tasks to complete', 20_000, 100)
    expect(await anonymousTask('203.0.113.3')).toMatch(/^[0-9a-f-]{36}$/)
  }, 60_000)

  it('on 2026-07-28, an anonymous task is read only from the address that created it', async () => {
    const taskId = await anonymousTask('203.0.113.4')
    expect((await anonymous('203.0.113.4', 'tasks/get', { taskId })).message.result).toMatchObject({ taskId, status: 'working' })
    const foreign = await anonymous('203.0.113.5', 'tasks/get', { taskId })
    expect(foreign.message.result).toBeUndefined()
    expect(foreign.message.error).toMatchObject({ code: -32602, message: expect.stringContaining('Task not found') })
    expect((await anonymous('203.0.113.5', 'tasks/cancel', { taskId })).message.error).toMatchObject({ code: -32602 })
    expect((await anonymous('203.0.113.4', 'tasks/get', { taskId })).message.result).toMatchObject({ status: 'working' })
  })

  it('keeps a 2025-11-25 task at least tasks.minTtlMs (10 minutes) when its client asks less, and says so in the task', async () => {
    const session = await openRawLegacy(proxied)
    try {
      const created = await singleMessage(await session.post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'task_wait', arguments: { ms: 0 }, task: { ttl: 60_000 } } }))
      expect(created.result?.task).toMatchObject({ ttl: 600_000 })
      const taskId = String((created.result?.task as { taskId: string }).taskId)
      const got = await singleMessage(await session.post({ jsonrpc: '2.0', id: 4, method: 'tasks/get', params: { taskId } }))
      expect(got.result).toMatchObject({ taskId, ttl: 600_000 })
    }
    finally {
      await session.close()
    }
  })

  it('keeps an anonymous 2025-11-25 task at most an hour (tasks.maxAnonymousTtlMs), whatever ttl it asked for, and says so in the task', async () => {
    const session = await openRawLegacy(proxied)
    try {
      const created = await singleMessage(await session.post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'task_wait', arguments: { ms: 600_000 }, task: { ttl: 24 * 3_600_000 } } }))
      expect(created.result?.task).toMatchObject({ ttl: 3_600_000 })
    }
    finally {
      await session.close()
    }
  })

  // The reproduction: a 3.5 MB argument the tool's schema strips was kept with the task.
  it('refuses a task whose arguments are larger than a task keeps, naming tasks.maxArgumentBytes, and keeps nothing of it', async () => {
    const before = await taskRecords()
    const { message } = await anonymous('203.0.113.6', 'tools/call', { name: 'task_wait', arguments: { ms: 600_000, padding: 'x'.repeat(3_500_000) } })
    expect(message.result).toBeUndefined()
    expect(message.error).toMatchObject({ code: -32602, message: expect.stringContaining('mcp.tasks.maxArgumentBytes = 262144') })
    expect(await taskRecords()).toBe(before)
  })

  it('refuses a task whose client capabilities are larger than a task keeps, naming tasks.maxCapabilitiesBytes', async () => {
    const capabilities = { ...TASKS, extensions: { ...TASKS.extensions, 'example.com/bulky': { blob: 'x'.repeat(100_000) } } }
    const { message } = await anonymous('203.0.113.7', 'tools/call', { name: 'task_wait', arguments: { ms: 600_000 } }, capabilities)
    expect(message.error).toMatchObject({ code: -32602, message: expect.stringContaining('mcp.tasks.maxCapabilitiesBytes = 65536') })
  })

  it('refuses an answer larger than a task keeps, naming tasks.maxAnswerBytes; the question stays open', async () => {
    const capabilities = { ...TASKS, elicitation: { form: {} } }
    const created = await anonymous('203.0.113.8', 'tools/call', { name: 'task_deploy', arguments: { service: 'api' } }, capabilities)
    const taskId = String(created.message.result?.taskId)
    await until(async () => (await anonymous('203.0.113.8', 'tasks/get', { taskId }, capabilities)).message.result?.status === 'input_required', 'the question')
    const [key] = Object.keys(((await anonymous('203.0.113.8', 'tasks/get', { taskId }, capabilities)).message.result?.inputRequests ?? {}) as Record<string, unknown>)
    const bulky = { action: 'accept', content: { env: 'x'.repeat(1_100_000), replicas: 1 } }
    const refused = await anonymous('203.0.113.8', 'tasks/update', { taskId, inputResponses: { [String(key)]: bulky } }, capabilities)
    expect(refused.message.error).toMatchObject({ code: -32602, message: expect.stringContaining('mcp.tasks.maxAnswerBytes = 1048576') })
    const still = await anonymous('203.0.113.8', 'tasks/get', { taskId }, capabilities)
    expect(still.message.result).toMatchObject({ status: 'input_required', inputRequests: { [String(key)]: expect.anything() } })
  })
})
