import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { textOf } from '../../utils/clients'
import { useCluster } from '../../utils/cluster'
import { clusterTaskCalls } from '../../utils/cluster-tasks'
import { until } from '../../utils/until'
import { nextMessage, openRawLegacy, singleMessage, sseEvents, toRpcMessage } from '../../utils/raw-legacy'
import type { RpcMessage, SseEvent } from '../../utils/raw-legacy'
import { instanceOfStream } from '../../../src/runtime/server/transport/streams/journal'
import { LEGACY } from '../../utils/raw'

// A legacy task's question goes out on the session's GET stream when the client has no
// tasks/result open, and that stream may be held by another instance than the one running the
// task. These tests pin the cases the chaos run lost such a question in (the call then hung to its
// deadline): the holder between two connections of its client, and the holder dead; and the
// answer that reaches another instance after the one that asked died, which the instance taking
// the task over must find rather than ask again.
const cluster = useCluster('shared-state', 3)
const connections: Redis[] = []
afterAll(() => connections.forEach(connection => connection.disconnect()))


const { endpointOf } = clusterTaskCalls(cluster)

function pidOf(index: number): number {
  const pid = cluster().instances[index]?.pid
  if (pid === undefined) throw new Error(`no pid for instance ${index}`)
  return pid
}

/** A 2025-11-25 session opened on `url`, with what its GET streams and task polls need. */
async function openTaskSession(url: URL) {
  const session = await openRawLegacy({ url }, { elicitation: { form: {} }, tasks: {} })
  const getHeaders = { 'accept': 'text/event-stream', 'mcp-session-id': session.id, 'mcp-protocol-version': LEGACY }
  let ids = 100
  const createTask = async (label: string, tool = 'task_where', more: Record<string, unknown> = {}) => {
    const created = await singleMessage(await session.post({ jsonrpc: '2.0', id: ids++, method: 'tools/call', params: { name: tool, arguments: { label, ...more }, task: { ttl: 60_000 } } }))
    return String((created.result?.task as Record<string, unknown> | undefined)?.taskId)
  }
  // Asking about the task shows the client holds it: only then is its question pushed.
  const statusOf = async (taskId: string) => (await singleMessage(await session.post({ jsonrpc: '2.0', id: ids++, method: 'tasks/get', params: { taskId } }))).result?.status
  const resultOf = async (taskId: string) => (await singleMessage(await session.post({ jsonrpc: '2.0', id: ids++, method: 'tasks/result', params: { taskId } }))).result
  return { ...session, getHeaders, createTask, statusOf, resultOf }
}

/** Opens the session's GET stream on `url` (resuming after `lastEventId`, if given); its events and what closes it. */
async function openGet(url: URL, headers: Record<string, string>, lastEventId?: string) {
  const controller = new AbortController()
  const response = await fetch(url, { headers: { ...headers, ...(lastEventId && { 'last-event-id': lastEventId }) }, signal: controller.signal })
  expect(response.status).toBe(200)
  return { events: sseEvents(response), close: () => controller.abort() }
}

/** The next question on a GET stream: priming events and the task's status notifications skipped. */
async function nextQuestion(events: AsyncGenerator<SseEvent>): Promise<RpcMessage> {
  for (;;) {
    const event = await nextMessage(events, 'the question')
    const message = event.data ? toRpcMessage(JSON.parse(event.data)) : undefined
    if (message?.method === 'elicitation/create') return message
  }
}

/**
 * Resumes the session's GET stream on `url` after `lastEventId`, answers the task's question that
 * comes there, and checks the task then finished where it ran (instance 0); closes the session.
 */
async function resumeAndFinish(session: Awaited<ReturnType<typeof openTaskSession>>, url: URL, lastEventId: string, taskId: string, label: string): Promise<void> {
  const resumed = await openGet(url, session.getHeaders, lastEventId)
  try {
    await answerAndFinish(session, resumed.events, taskId, label)
  }
  finally {
    resumed.close()
    await session.close()
  }
}

/** Reads the task's question from `events`, answers it yes, and checks the task then finished where it ran (instance 0). */
async function answerAndFinish(session: Awaited<ReturnType<typeof openTaskSession>>, events: AsyncGenerator<SseEvent>, taskId: string, label: string): Promise<void> {
  const question = await nextQuestion(events)
  expect(question).toMatchObject({ method: 'elicitation/create', params: { _meta: { 'io.modelcontextprotocol/related-task': { taskId } } } })
  const answered = await session.post({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { confirm: true } } })
  expect(answered.status).toBe(202)
  expect(textOf(await session.resultOf(taskId))).toBe(`${label}: went on in ${pidOf(0)}`)
}

describe('a legacy task\'s question for a GET stream another instance holds, through Redis', () => {
  it('is kept by the holder while its client is between connections, and comes with the resumed stream', async () => {
    const [a, b] = [endpointOf(0), endpointOf(1)]
    const session = await openTaskSession(a)
    // The GET stream taken on b, then left: b keeps its journal, with no connection open.
    const first = await openGet(b, session.getHeaders)
    const priming = await nextMessage(first.events, 'the priming event')
    first.close()
    const journalKey = `nuxt-mcp:/mcp:events:${session.id}:${priming.id!.replace(/_0$/, '')}`
    const redis = new Redis(cluster().redis.url)
    connections.push(redis)
    const kept = await redis.llen(journalKey)
    // The task runs on a; with no tasks/result open its question goes to the GET stream.
    const taskId = await session.createTask('between')
    await until(async () => await session.statusOf(taskId) === 'input_required', 'the question', 5000, 100)
    // It reaches b's journal while no connection is open there (a broadcast was dropped then).
    await until(async () => await redis.llen(journalKey) > kept, 'the question kept in b\'s journal', 10_000)
    await resumeAndFinish(session, b, priming.id!, taskId, 'between')
  })

  it('reaches the GET stream the client opens next when the instance that held it died', async () => {
    const [a, b, c] = [endpointOf(0), endpointOf(1), endpointOf(2)]
    const session = await openTaskSession(a)
    const held = await openGet(b, session.getHeaders)
    const priming = await nextMessage(held.events, 'the priming event')
    const dead = instanceOfStream(priming.id!)
    // b dies holding the stream. Its inbox (the mailbox's, in Redis) shows what is sent to it.
    const inbox = new Redis(cluster().redis.url)
    connections.push(inbox)
    const sentToDead = async () => await inbox.lrange(`nuxt-mcp:/mcp:inbox:${dead}`, 0, -1)
    process.kill(-pidOf(1), 'SIGKILL')
    held.close()
    const taskId = await session.createTask('holder-died')
    await until(async () => await session.statusOf(taskId) === 'input_required', 'the question', 5000, 100)
    // The question is raised while the dead instance still holds the stream, and sent to it.
    await until(async () => (await sentToDead()).some(text => text.includes('elicitation/create') && text.includes(taskId)), 'the question sent to the dead holder', 10_000)
    // The client comes back on c: c takes the stream, and the question is tried there next.
    await resumeAndFinish(session, c, priming.id!, taskId, 'holder-died')
  })

  it('an answer given through another instance after the asking one died is kept: the task taken over finishes without asking again', async () => {
    // Instance 1 died in the test before; the task runs on 2 and is answered through 0.
    const [a, c] = [endpointOf(0), endpointOf(2)]
    const session = await openTaskSession(c)
    const held = await openGet(c, session.getHeaders)
    // task_once: its question is the same when its handler runs again (task_where's names the
    // instance that runs it, so an answer kept for it is rightly not taken for the new one's).
    const taskId = await session.createTask('answer-outlived', 'task_once', { file: join(mkdtempSync(join(tmpdir(), 'task-once-')), 'charges.log') })
    await until(async () => await session.statusOf(taskId) === 'input_required', 'the question', 5000, 100)
    const question = await nextQuestion(held.events)
    expect(question).toMatchObject({ method: 'elicitation/create', params: { _meta: { 'io.modelcontextprotocol/related-task': { taskId } } } })
    // What tells the transport which question it is stays on the server.
    expect(JSON.stringify(question.params)).not.toContain('nuxt-mcp-elicitation/task-question')
    process.kill(-pidOf(2), 'SIGKILL')
    held.close()
    const onA = (body: Record<string, unknown>) => fetch(a, { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-session-id': session.id, 'mcp-protocol-version': LEGACY }, body: JSON.stringify(body) })
    const answered = await onA({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { confirm: true } } })
    expect(answered.status).toBe(202)
    // The first read once the dead instance's heartbeat has lapsed takes the task over here; its
    // handler runs again and finds the answer, so it finishes with nobody answering again.
    let id = 500
    await until(async () => (await singleMessage(await onA({ jsonrpc: '2.0', id: id++, method: 'tasks/get', params: { taskId } }))).result?.status === 'completed', 'the task taken over and finished', 15_000, 250)
    const result = await singleMessage(await onA({ jsonrpc: '2.0', id: id++, method: 'tasks/result', params: { taskId } }))
    expect(textOf(result.result)).toBe(`answer-outlived: charged by ${pidOf(2)}, shipped by ${pidOf(0)}`)
  })
})

describe('a legacy task\'s question no instance could deliver', () => {
  it('is logged naming the session by its tag, never its id (an anonymous session\'s credential)', async () => {
    // Instances 1 and 2 died in the tests before; the session lives on 0 and never opens a GET stream.
    const instance = cluster().instances[0]!
    const session = await openTaskSession(endpointOf(0))
    try {
      const before = instance.output().length
      const taskId = await session.createTask('nobody-holds')
      await until(async () => await session.statusOf(taskId) === 'input_required', 'the question', 5000, 100)
      const logged = () => instance.output().slice(before).split('\n').filter(line => line.includes('GET stream') && line.includes('was not delivered within'))
      await until(() => logged().length > 0, 'the undelivered question logged', 20_000, 250)
      expect(logged()[0]).toMatch(/session [0-9a-f]{32} \(its tag\)/)
      expect(instance.output().slice(before)).not.toContain(session.id)
    }
    finally {
      await session.close()
    }
  })
})
