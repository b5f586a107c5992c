import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { redisCommand } from '../../../scripts/cluster.mjs'
import { connectLegacy, textOf } from '../../utils/clients'
import type { ScriptedAnswer } from '../../utils/clients'
import { useCluster } from '../../utils/cluster'
import { clusterTaskCalls } from '../../utils/cluster-tasks'
import { until } from '../../utils/until'
import { openRawLegacy, singleMessage, sseMessages } from '../../utils/raw-legacy'
import type { RpcMessage } from '../../utils/raw-legacy'

// Tasks across instances with Redis (real redis-server, nginx round-robin, no affinity):
// created on one instance, read, answered and cancelled through the other; a legacy client's task
// followed through whichever instance each poll reaches; a task whose instance died taken over.
const cluster = useCluster('shared-state', 3)
const { endpointOf, call, statusOf } = clusterTaskCalls(cluster)

let redis: Redis | undefined
afterAll(() => redis?.disconnect())

/** The keys Redis holds under `pattern`, in the cluster's Redis. */
async function redisKeys(pattern: string): Promise<string[]> {
  redis ??= new Redis(cluster().redis.url)
  return redis.keys(pattern)
}

/**
 * A `task_where` task running on the first instance, waiting on its question as the second sees
 * it; `confirm()` answers that question through the second instance.
 */
async function questionOnFirst(label: string) {
  const [a, b] = [endpointOf(0), endpointOf(1)]
  const created = await call(a, 'tools/call', { name: 'task_where', arguments: { label } })
  const taskId = String(created.message.result?.taskId)
  await until(async () => (await statusOf(b, taskId))?.status === 'input_required', 'the question, seen from the other instance')
  const [key] = Object.keys(((await statusOf(b, taskId))?.inputRequests ?? {}) as Record<string, unknown>)
  const confirm = () => call(b, 'tasks/update', { taskId, inputResponses: { [String(key)]: { action: 'accept', content: { confirm: true } } } })
  return { a, b, taskId, confirm }
}

describe('tasks across instances, through Redis', () => {
  it('a task answered directly (its handler ended at once) leaves no record and no place under its caller\'s cap in Redis', async () => {
    const records = (await redisKeys('*:task:*')).length
    for (const index of [0, 1, 2, 0]) {
      const quick = await call(endpointOf(index), 'tools/call', { name: 'task_quick', arguments: { text: `quick ${index}` } }, 'quick-user')
      expect(quick.message.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: `Done: quick ${index}` }] })
      expect(quick.message.result).not.toHaveProperty('taskId')
    }
    expect((await redisKeys('*:task:*')).length).toBe(records)
    expect(await redisKeys('*:tasks-of:quick-user')).toEqual([])
  })

  it('a task created on one instance is read, answered and finished through the other', async () => {
    const [a, b] = [endpointOf(0), endpointOf(1)]
    const created = await call(a, 'tools/call', { name: 'task_where', arguments: { label: 'across' } })
    expect(created.message.result).toMatchObject({ resultType: 'task' })
    const taskId = String(created.message.result?.taskId)
    // Readable at once on the other instance (durably created before it was handed out).
    expect(await statusOf(b, taskId)).toMatchObject({ taskId })
    await until(async () => (await statusOf(b, taskId))?.status === 'input_required', 'the question, seen from the other instance')
    const waiting = await statusOf(b, taskId)
    const [key] = Object.keys((waiting?.inputRequests ?? {}) as Record<string, unknown>)
    expect(key).toBeDefined()
    const runner = cluster().instances[0]?.pid
    expect(JSON.stringify(waiting?.inputRequests)).toContain(`started by ${runner}`)
    const updated = await call(b, 'tasks/update', { taskId, inputResponses: { [String(key)]: { action: 'accept', content: { confirm: true } } } })
    expect(updated.message.result).toMatchObject({ resultType: 'complete' })
    await until(async () => (await statusOf(b, taskId))?.status === 'completed', 'the task to complete, seen from the other instance')
    const done = await statusOf(a, taskId)
    expect(textOf(done?.result)).toBe(`across: went on in ${runner}`)
    // Another principal gets what an unknown id gets, on either instance.
    for (const url of [a, b]) expect((await call(url, 'tasks/get', { taskId }, 'mallory')).message.error).toMatchObject({ code: -32602 })
  })

  it('answers given through another instance while its subscriber reconnects reach the task', async () => {
    const { a, b, taskId, confirm } = await questionOnFirst('reset')
    // The running instance's subscriber is gone for its first reconnect delay (200 ms), while the
    // other instance's commands go on: an update sent once then was heard by nobody, acknowledged
    // all the same, and the task waited forever (the chaos run, seed 28, after a Redis restart).
    expect(await redisCommand(cluster().redis.port, 'CLIENT KILL TYPE pubsub')).toMatch(/^:[1-9]/)
    expect((await confirm()).message.result).toMatchObject({ resultType: 'complete' })
    await until(async () => (await statusOf(b, taskId))?.status === 'completed', 'the task to complete after the reset')
    expect(textOf((await statusOf(a, taskId))?.result)).toBe(`reset: went on in ${cluster().instances[0]?.pid}`)
  })

  it('keeps a tasks/update for a running instance that cannot listen, until it can; refuses one Redis cannot take within 10 s, and takes the same answers once it can', async () => {
    const { a, b, taskId, confirm: update } = await questionOnFirst('unheard')
    const { port } = cluster().redis
    // The instances stay alive (their heartbeats go on) but cannot subscribe again: the running
    // one hears nothing on its channel, however long it waits. The update waits in its inbox
    // (the mailbox, in Redis) instead of being tried for 10 s and dropped.
    const refusedSubscribes = () => cluster().instances[0]?.output().split('\n').filter(line => line.includes('refused this instance\'s SUBSCRIBE')) ?? []
    expect(await redisCommand(port, 'ACL SETUSER default -subscribe -psubscribe -ssubscribe')).toBe('+OK\r\n')
    try {
      expect(await redisCommand(port, 'CLIENT KILL TYPE pubsub')).toMatch(/^:[1-9]/)
      expect((await update()).message.result).toMatchObject({ resultType: 'complete' })
      // It cannot listen (each endpoint's SUBSCRIBE refused, tried again every 200 ms): the task waits.
      await until(() => refusedSubscribes().length >= 2, 'each endpoint\'s SUBSCRIBE refused on the running instance', 15_000, 100)
      await new Promise(resolve => setTimeout(resolve, 2000))
      expect((await statusOf(b, taskId))?.status).toBe('input_required')
    }
    finally {
      await redisCommand(port, 'ACL SETUSER default +subscribe +psubscribe +ssubscribe')
    }
    // Each subscriber connects again until Redis accepts its SUBSCRIBE; the running one then reads
    // its inbox, and the task goes on with the answers given while it could not listen.
    await until(async () => (await statusOf(b, taskId))?.status === 'completed', 'the task to complete once its instance hears', 15_000)
    expect(textOf((await statusOf(a, taskId))?.result)).toBe(`unheard: went on in ${cluster().instances[0]?.pid}`)
    // Said once per endpoint (the fixture has two), though each subscriber connected again every
    // 200 ms meanwhile.
    const said = refusedSubscribes()
    expect(said.map(line => /SUBSCRIBE for (\S+) \(NOPERM/.exec(line)?.[1]).sort(), said.join('\n')).toEqual(['/mcp', '/mcp/second'])

    // An update Redis itself does not take (here its inbox cannot be written) is refused, never
    // acknowledged and lost; the same answers sent again, as the refusal says, are taken once.
    const unkept = await questionOnFirst('unkept')
    expect(await redisCommand(port, 'ACL SETUSER default -rpush')).toBe('+OK\r\n')
    try {
      const refused = await unkept.confirm()
      expect(refused.message.error).toMatchObject({ code: -32603 })
      expect(refused.message.error?.message).toContain(`task "${unkept.taskId}"`)
      expect(refused.message.error?.message).toContain('Send tasks/update again')
      expect((await statusOf(unkept.b, unkept.taskId))?.status).toBe('input_required')
    }
    finally {
      await redisCommand(port, 'ACL SETUSER default +rpush')
    }
    expect((await unkept.confirm()).message.result).toMatchObject({ resultType: 'complete' })
    await until(async () => (await statusOf(unkept.b, unkept.taskId))?.status === 'completed', 'the task to complete once its update is taken')
    expect(textOf((await statusOf(unkept.a, unkept.taskId))?.result)).toBe(`unkept: went on in ${cluster().instances[0]?.pid}`)
  }, 60_000)

  it('a task waiting on one instance is cancelled through the other', async () => {
    const [a, b] = [endpointOf(0), endpointOf(1)]
    const created = await call(a, 'tools/call', { name: 'task_where', arguments: { label: 'cancel' } })
    const taskId = String(created.message.result?.taskId)
    await until(async () => (await statusOf(b, taskId))?.status === 'input_required', 'the question')
    expect((await call(b, 'tasks/cancel', { taskId })).message.result).toMatchObject({ resultType: 'complete' })
    await until(async () => (await statusOf(a, taskId))?.status === 'cancelled', 'the task to be cancelled where it runs')
    expect((await statusOf(b, taskId))?.status).toBe('cancelled')
  })

  it('a legacy client (v1 SDK) follows its task through whichever instance each request reaches', async () => {
    const asked: Record<string, unknown>[] = []
    const client = await connectLegacy(cluster().url, { received: asked, answer: (): ScriptedAnswer => ({ action: 'accept', content: { confirm: true } }) })
    try {
      let result: unknown
      for await (const message of client.experimental.tasks.callToolStream({ name: 'task_where', arguments: { label: 'legacy' } }, CallToolResultSchema, { task: { ttl: 60_000 } })) {
        if (message.type === 'result') result = message.result
        if (message.type === 'error') throw message.error
      }
      expect(textOf(result)).toMatch(/^legacy: went on in \d+$/)
      expect(asked).toHaveLength(1)
    }
    finally {
      await client.close()
    }
  })

  it('a legacy task whose instance was killed is taken over on its session: its step not run again, its question pushed again there', async () => {
    const [b, c] = [endpointOf(1), endpointOf(2)]
    const file = join(mkdtempSync(join(tmpdir(), 'task-once-')), 'charges.log')
    // The session and its task on instance 2; the client then reaches instance 1 only.
    const onC = await openRawLegacy({ url: c }, { elicitation: { form: {} }, tasks: {} })
    const created = await singleMessage(await onC.post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'task_once', arguments: { label: 'legacy-moved', file }, task: { ttl: 60_000 } } }))
    const taskId = String((created.result?.task as Record<string, unknown> | undefined)?.taskId)
    const status = async (post: typeof onC.post, id: number) => (await singleMessage(await post({ jsonrpc: '2.0', id, method: 'tasks/get', params: { taskId } }))).result?.status
    await until(async () => await status(onC.post, 3) === 'input_required', 'the question')
    const killed = cluster().instances[2]?.pid
    const survivor = cluster().instances[1]?.pid
    if (killed === undefined || survivor === undefined) throw new Error('no pid')
    process.kill(-killed, 'SIGKILL')
    const post = (body: Record<string, unknown>) => fetch(b, { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-session-id': onC.id, 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify(body) })
    const closeGet = new AbortController()
    const get = await fetch(b, { headers: { 'accept': 'text/event-stream', 'mcp-session-id': onC.id, 'mcp-protocol-version': '2025-11-25' }, signal: closeGet.signal })
    expect(get.status).toBe(200)
    const received: RpcMessage[] = []
    const reading = (async () => {
      for await (const message of sseMessages(get)) received.push(message)
    })().catch(() => {})
    try {
      // The first request about the task once the dead instance's heartbeat has lapsed (within
      // 6 s of the kill) takes it over here and runs its handler again; until then the task reads
      // as it was, waiting for its answer.
      let id = 4
      await until(async () => {
        expect(await status(post, id++)).toBe('input_required')
        return received.some(message => message.method === 'elicitation/create')
      }, 'the task taken over and its question pushed again', 15_000, 250)
      const question = received.find(message => message.method === 'elicitation/create')
      expect(question?.params).toMatchObject({ message: `legacy-moved: charged by ${killed}. Ship?`, _meta: { 'io.modelcontextprotocol/related-task': { taskId } } })
      const answered = await post({ jsonrpc: '2.0', id: question?.id, result: { action: 'accept', content: { confirm: true } } })
      expect(answered.status).toBe(202)
      const result = await singleMessage(await post({ jsonrpc: '2.0', id: 1000, method: 'tasks/result', params: { taskId } }))
      expect(textOf(result.result)).toBe(`legacy-moved: charged by ${killed}, shipped by ${survivor}`)
      expect(readFileSync(file, 'utf8').trim().split('\n')).toEqual([`legacy-moved ${killed}`])
    }
    finally {
      closeGet.abort()
      await reading
    }
  })

  it('a task whose instance was killed is taken over: the answer given since is kept, its once() step ran once', async () => {
    const [a, b] = [endpointOf(0), endpointOf(1)]
    const file = join(mkdtempSync(join(tmpdir(), 'task-once-')), 'charges.log')
    const created = await call(a, 'tools/call', { name: 'task_once', arguments: { label: 'moved', file } })
    const taskId = String(created.message.result?.taskId)
    await until(async () => (await statusOf(b, taskId))?.status === 'input_required', 'the question')
    const [key] = Object.keys(((await statusOf(b, taskId))?.inputRequests ?? {}) as Record<string, unknown>)
    const killed = cluster().instances[0]?.pid
    const survivor = cluster().instances[1]?.pid
    if (killed === undefined || survivor === undefined) throw new Error('no pid')
    process.kill(-killed, 'SIGKILL')
    // Answered through the survivor after the kill: it takes the task over and keeps the answer.
    const updated = await call(b, 'tasks/update', { taskId, inputResponses: { [String(key)]: { action: 'accept', content: { confirm: true } } } })
    expect(updated.message.result).toMatchObject({ resultType: 'complete' })
    // Taken over once the dead instance's heartbeat has lapsed (within 6 s of the kill).
    await until(async () => (await statusOf(b, taskId))?.status === 'completed', 'the task to complete on the survivor', 15_000, 250)
    expect(textOf((await statusOf(b, taskId))?.result)).toBe(`moved: charged by ${killed}, shipped by ${survivor}`)
    // The step ran once, on the instance that died; the survivor ran the handler again without it.
    expect(readFileSync(file, 'utf8').trim().split('\n')).toEqual([`moved ${killed}`])
  })
})
