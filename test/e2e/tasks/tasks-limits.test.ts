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

beforeAll(async () => {
  app = await startFixture('elicitation', { NUXT_MCP_TASKS_MAX_PER_PRINCIPAL: String(CAP) })
})
afterAll(async () => {
  await app?.stop()
})

async function taskRecords(): Promise<number> {
  const { message } = await postModern(app.url, 'tools/call', { name: 'internals', arguments: {} })
  const parsed: unknown = JSON.parse(textOf(message.result))
  if (!isRecord(parsed) || typeof parsed.tasks !== 'number') throw new Error(`unexpected internals: ${JSON.stringify(parsed)}`)
  return parsed.tasks
}

function createTask(user: string) {
  return postModern(app.url, 'tools/call', { name: 'task_wait', arguments: { ms: 0 } }, { capabilities: TASKS, headers: { 'x-user': user } })
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
