import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { textOf } from '../../utils/clients'
import { useCluster } from '../../utils/cluster'
import { clusterTaskCalls } from '../../utils/cluster-tasks'
import { until } from '../../utils/until'

// What a task keeps in Redis, measured there (STRLEN), and what an answer kept for a question
// is worth after a takeover: real redis-server, two instances, one of them killed.
const cluster = useCluster('shared-state', 2)
const { endpointOf, call, statusOf } = clusterTaskCalls(cluster)

let redis: Redis | undefined
afterAll(() => redis?.disconnect())

/** The bytes Redis holds for every key that names task `taskId`, by key. */
async function taskBytes(taskId: string): Promise<Record<string, number>> {
  redis ??= new Redis(cluster().redis.url)
  const sizes: Record<string, number> = {}
  for (const key of await redis.keys(`*${taskId}*`)) {
    const type = await redis.type(key)
    sizes[key] = type === 'string' ? await redis.strlen(key) : Number(await redis.memory('USAGE', key))
  }
  return sizes
}

describe('what a task keeps in Redis', () => {
  // The reproduction: a 3.5 MB argument the tool's schema strips was written to Redis
  // with the task, and again with every change of the task.
  it('keeps no task for arguments over tasks.maxArgumentBytes, naming the option', async () => {
    redis ??= new Redis(cluster().redis.url)
    const before = (await redis.keys('*:task:*')).length
    const refused = await call(endpointOf(0), 'tools/call', { name: 'task_where', arguments: { label: 'bulky', padding: 'x'.repeat(3_500_000) } })
    expect(refused.message.error).toMatchObject({ code: -32602, message: expect.stringContaining('mcp.tasks.maxArgumentBytes') })
    expect((await redis.keys('*:task:*')).length).toBe(before)
  })

  it('writes the arguments once, apart from the record that every change rewrites', async () => {
    const created = await call(endpointOf(0), 'tools/call', { name: 'task_where', arguments: { label: 'padded', padding: 'x'.repeat(200_000) } })
    const taskId = String(created.message.result?.taskId)
    await until(async () => (await statusOf(endpointOf(1), taskId))?.status === 'input_required', 'the question')
    const sizes = await taskBytes(taskId)
    const record = Object.entries(sizes).find(([key]) => key.endsWith(`:task:${taskId}`))
    const call_ = Object.entries(sizes).find(([key]) => key.endsWith(`:task-call:${taskId}`))
    expect(record?.[1]).toBeLessThan(4096)
    expect(call_?.[1]).toBeGreaterThan(200_000)
    expect(call_?.[1]).toBeLessThan(210_000)
    await call(endpointOf(1), 'tasks/cancel', { taskId })
  })
})

describe('an answer kept across a takeover', () => {
  // The scenario: "Deploy build-41?" answered yes; the instance dies; the handler, run
  // again from the top, now finds build-42. The yes was not given to that question.
  it('is not applied to a different question under the same key: that one is asked', async () => {
    const [a, b] = [endpointOf(0), endpointOf(1)]
    const file = join(mkdtempSync(join(tmpdir(), 'task-build-')), 'latest')
    writeFileSync(file, 'build-41')
    const created = await call(a, 'tools/call', { name: 'task_build', arguments: { file } })
    const taskId = String(created.message.result?.taskId)
    await until(async () => (await statusOf(b, taskId))?.status === 'input_required', 'the question')
    const asked = (await statusOf(b, taskId))?.inputRequests as Record<string, { params?: { message?: string } }>
    const [key] = Object.keys(asked)
    expect(asked[String(key)]?.params?.message).toBe('Deploy build-41?')
    const killed = cluster().instances[0]?.pid
    if (killed === undefined) throw new Error('no pid')
    process.kill(-killed, 'SIGKILL')
    writeFileSync(file, 'build-42')
    // Answered through the survivor after the kill: kept for the takeover, bound to its question.
    const updated = await call(b, 'tasks/update', { taskId, inputResponses: { [String(key)]: { action: 'accept', content: { confirm: true } } } })
    expect(updated.message.result).toMatchObject({ resultType: 'complete' })
    // Taken over once the dead instance's heartbeat has lapsed: the new question is asked.
    let again: Record<string, { params?: { message?: string } }> = {}
    await until(async () => {
      const task = await statusOf(b, taskId)
      expect(task?.status).not.toBe('completed')
      again = (task?.inputRequests ?? {}) as typeof again
      return Object.values(again).some(request => request.params?.message === 'Deploy build-42?')
    }, 'the question about build-42', 15_000, 250)
    const [next] = Object.keys(again)
    expect(next).not.toBe(key)
    await call(b, 'tasks/update', { taskId, inputResponses: { [String(next)]: { action: 'accept', content: { confirm: false } } } })
    await until(async () => (await statusOf(b, taskId))?.status === 'completed', 'the task to complete')
    expect(textOf((await statusOf(b, taskId))?.result)).toBe('Not deployed: build-42')
  })
})
