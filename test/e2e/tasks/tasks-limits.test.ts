import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { textOf } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { postModern } from '../../utils/raw'
import { until } from '../../utils/until'
import { isRecord } from '../../../src/runtime/server/common/is-record'

/**
 * The bounds of tasks, through real 2026-07-28 requests: one caller stops at its cap with an error
 * that names the option, another caller is not affected, and the records go when their ttl is
 * over (the fixture's internal counter of task records, not the heap, says so exactly).
 */

const TTL_MS = 2000
const CAP = 1000
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } }
let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('elicitation', { NUXT_MCP_TASKS_TTL_MS: String(TTL_MS), NUXT_MCP_TASKS_MAX_PER_PRINCIPAL: String(CAP) })
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
  it(`stops one caller at ${CAP} tasks with an error naming the option, and forgets them after their ttl`, async () => {
    const before = await taskRecords()
    for (let batch = 0; batch < CAP / 50; batch++) {
      const created = await Promise.all(Array.from({ length: 50 }, () => createTask('mallory')))
      for (const { message } of created) expect(message.result).toMatchObject({ resultType: 'task', ttlMs: TTL_MS })
    }
    const refused = await createTask('mallory')
    expect(refused.message.error).toMatchObject({ code: -32600, message: expect.stringContaining(`mcp.tasks.maxPerPrincipal = ${CAP}`) })
    // The cap is per caller: another one still gets its task.
    expect((await createTask('ada')).message.result).toMatchObject({ resultType: 'task' })
    expect(await taskRecords()).toBe(before + CAP + 1)
    // Past their ttl every record is gone, and the caller may create again.
    await until(async () => (await taskRecords()) === before, 'the task records to expire', TTL_MS + 5000, 100)
    expect((await createTask('mallory')).message.result).toMatchObject({ resultType: 'task' })
  }, 60_000)
})
