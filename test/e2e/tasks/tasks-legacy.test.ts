import { CallToolResultSchema, CreateTaskResultSchema, LoggingMessageNotificationSchema, McpError, TaskStatusNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, textOf } from '../../utils/clients'
import type { ScriptedAnswer } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { runsOf } from '../../utils/raw'
import { nextMessage, openRawLegacy, singleMessage, sseMessages } from '../../utils/raw-legacy'
import type { RpcMessage } from '../../utils/raw-legacy'
import { until } from '../../utils/until'

/**
 * 2025-11-25 experimental tasks with the client most hosts embed: the v1 SDK `Client` and its
 * `experimental.tasks` API, on a legacy session of the built elicitation fixture.
 */

let app: RunningFixture
const RELATED = 'io.modelcontextprotocol/related-task'

beforeAll(async () => {
  app = await startFixture('elicitation')
})
afterAll(async () => {
  await app?.stop()
})

/** A legacy client as `user`, answering each elicitation with the next of `answers` and recording what it was asked. */
async function connectAs(user: string, answers: ScriptedAnswer[], asked: Record<string, unknown>[] = []): Promise<Client> {
  return connectLegacy(app.url, {
    requestInit: { headers: { 'x-user': user } },
    received: asked,
    answer: () => answers.shift() ?? { action: 'cancel' },
  })
}

/** Runs a tool as a task with the v1 client's stream: the task's id and every message of the stream. */
async function streamTask(client: Client, name: string, args: Record<string, unknown>) {
  const stream = client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, { task: { ttl: 60_000 } })
  const statuses: string[] = []
  let taskId = ''
  let result: unknown
  for await (const message of stream) {
    if (message.type === 'taskCreated') taskId = message.task.taskId
    if (message.type === 'taskCreated' || message.type === 'taskStatus') statuses.push(message.task.status)
    if (message.type === 'result') result = message.result
    if (message.type === 'error') throw message.error
  }
  return { taskId, statuses, result }
}

describe('tasks on a 2025-11-25 session (v1 SDK client)', () => {
  it('advertises the tasks capability and each tool\'s taskSupport', async () => {
    const client = await connectAs('ada', [])
    try {
      expect(client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } })
      const { tools } = await client.listTools()
      expect(tools.find(tool => tool.name === 'task_deploy')?.execution).toEqual({ taskSupport: 'optional' })
      expect(tools.find(tool => tool.name === 'task_begin')?.execution).toEqual({ taskSupport: 'required' })
      expect(tools.find(tool => tool.name === 'ask_form')?.execution).toBeUndefined()
    }
    finally {
      await client.close()
    }
  })

  it('runs a task whose form is asked inside it, re-asked once when invalid, its once() step run once', async () => {
    const asked: Record<string, unknown>[] = []
    const client = await connectAs('ada', [
      { action: 'accept', content: { env: 'production', replicas: 9 } },
      { action: 'accept', content: { env: 'production', replicas: 2 } },
    ], asked)
    const builds = await runsOf(app, 'task_deploy:build')
    try {
      await client.listTools()
      const { taskId, statuses, result } = await streamTask(client, 'task_deploy', { service: 'api' })
      expect(statuses[0]).toBe('working')
      expect(statuses).toContain('input_required')
      expect(textOf(result)).toBe(`Deployed build-api to production with 2 replicas (task ${taskId}).`)
      // Both asks carried the task; the second says what was wrong.
      expect(asked).toHaveLength(2)
      for (const params of asked) expect(params._meta).toEqual({ [RELATED]: { taskId } })
      expect(String(asked[1]?.message)).toMatch(/Please correct your answer: .*replicas/)
      expect(await runsOf(app, 'task_deploy:build')).toBe(builds + 1)
      const task = await client.experimental.tasks.getTask(taskId)
      // The client asked 60 s (as the MCP Inspector does): a task that asks a person is kept at
      // least tasks.minTtlMs (10 minutes by default), and says the ttl it got.
      expect(task).toMatchObject({ taskId, status: 'completed', ttl: 600_000 })
      const { tasks } = await client.experimental.tasks.listTasks()
      expect(tasks.map(listed => listed.taskId)).toContain(taskId)
    }
    finally {
      await client.close()
    }
  })

  it('sends the handler\'s log lines and the task\'s changes of status to the session as it runs, tagged with the task', async () => {
    const client = await connectAs('ada', [{ action: 'accept', content: { env: 'staging', replicas: 1 } }, { action: 'accept', content: { env: 'staging', replicas: 1 } }])
    const lines: Record<string, unknown>[] = []
    const statuses: { taskId: string, status: string }[] = []
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      lines.push(notification.params)
    })
    client.setNotificationHandler(TaskStatusNotificationSchema, (notification) => {
      statuses.push({ taskId: notification.params.taskId, status: notification.params.status })
    })
    try {
      await client.listTools()
      const { taskId } = await streamTask(client, 'task_deploy', { service: 'api' })
      await until(async () => lines.length > 0, 'the task\'s log line')
      expect(lines).toEqual([{ level: 'info', logger: 'deploy', data: 'Built build-api', _meta: { [RELATED]: { taskId } } }])
      // notifications/tasks/status for each change (the created status is the call's answer).
      await until(async () => statuses.some(entry => entry.status === 'completed'), 'the task\'s last status')
      expect(statuses).toEqual(['input_required', 'working', 'completed'].map(status => ({ taskId, status })))
      // Below the level the session asked for, a task's line is not sent, as any other is not.
      await client.setLoggingLevel('warning')
      await streamTask(client, 'task_deploy', { service: 'web' })
      expect(lines).toHaveLength(1)
    }
    finally {
      await client.close()
    }
  })

  it('asks in the ordinary call until the handler begins its task, then inside the task', async () => {
    const asked: Record<string, unknown>[] = []
    const client = await connectAs('ada', [{ action: 'accept', content: { name: 'Grace' } }, { action: 'accept', content: { confirm: true } }], asked)
    try {
      await client.listTools()
      const { taskId, result } = await streamTask(client, 'task_begin', {})
      expect(textOf(result)).toBe(`Grace approved the migration in task ${taskId}.`)
      // The first question belonged to the call (no task yet), the second to the task.
      expect(asked[0]?._meta).toBeUndefined()
      expect(asked[1]?._meta).toEqual({ [RELATED]: { taskId } })
    }
    finally {
      await client.close()
    }
  })

  it('cancels a running task: cancelled at once, the handler\'s signal aborted; a second cancel is refused', async () => {
    const client = await connectAs('ada', [])
    const aborted = await runsOf(app, 'task_wait:aborted')
    try {
      const created = await client.request({ method: 'tools/call', params: { name: 'task_wait', arguments: { ms: 60_000 }, task: { ttl: 60_000 } } }, CreateTaskResultSchema)
      const taskId = created.task.taskId
      expect(created.task.status).toBe('working')
      const cancelled = await client.experimental.tasks.cancelTask(taskId)
      expect(cancelled).toMatchObject({ taskId, status: 'cancelled' })
      expect((await client.experimental.tasks.getTask(taskId)).status).toBe('cancelled')
      await until(async () => (await runsOf(app, 'task_wait:aborted')) === aborted + 1, 'the handler to see its signal aborted')
      const again = client.experimental.tasks.cancelTask(taskId)
      await expect(again).rejects.toThrow(McpError)
      await expect(again).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('already ended (cancelled)') })
      // tasks/result of a cancelled task says so, as an error.
      await expect(client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema)).rejects.toMatchObject({ message: expect.stringContaining('was cancelled') })
    }
    finally {
      await client.close()
    }
  })

  it('refuses a required tool without params.task, and a forbidden one with it, naming the tool (-32601)', async () => {
    const client = await connectAs('ada', [])
    try {
      await expect(client.request({ method: 'tools/call', params: { name: 'task_begin', arguments: {} } }, CallToolResultSchema))
        .rejects.toMatchObject({ code: -32601, message: expect.stringContaining('"task_begin" runs only as a task') })
      await expect(client.request({ method: 'tools/call', params: { name: 'ask_form', arguments: {}, task: { ttl: 1000 } } }, CreateTaskResultSchema))
        .rejects.toMatchObject({ code: -32601, message: expect.stringContaining('"ask_form" does not run as a task') })
    }
    finally {
      await client.close()
    }
  })

  it('shows a task to its own session only: another session, of the same or another principal, gets "not found"', async () => {
    const owner = await connectAs('ada', [])
    const sameUser = await connectAs('ada', [])
    const otherUser = await connectAs('bob', [])
    try {
      const created = await owner.request({ method: 'tools/call', params: { name: 'task_wait', arguments: { ms: 0 }, task: {} } }, CreateTaskResultSchema)
      const taskId = created.task.taskId
      for (const stranger of [sameUser, otherUser]) {
        await expect(stranger.experimental.tasks.getTask(taskId)).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('Task not found') })
        await expect(stranger.experimental.tasks.cancelTask(taskId)).rejects.toMatchObject({ code: -32602 })
        expect((await stranger.experimental.tasks.listTasks()).tasks.map(task => task.taskId)).not.toContain(taskId)
      }
      const result = await owner.experimental.tasks.getTaskResult(taskId, CallToolResultSchema)
      expect(textOf(result)).toBe('Waited 0 ms.')
      expect(result._meta).toEqual({ [RELATED]: { taskId } })
    }
    finally {
      await Promise.all([owner.close(), sameUser.close(), otherUser.close()])
    }
  })

  it('pushes the question on the tasks/result stream when that request is the first about the task, not on the GET stream', async () => {
    const session = await openRawLegacy(app, { elicitation: { form: {} }, tasks: {} })
    const closeGet = new AbortController()
    const get = await fetch(app.url, { headers: { 'accept': 'text/event-stream', 'mcp-session-id': session.id, 'mcp-protocol-version': '2025-11-25' }, signal: closeGet.signal })
    const onGet: RpcMessage[] = []
    const reading = (async () => {
      for await (const message of sseMessages(get)) onGet.push(message)
    })().catch(() => {})
    try {
      const builds = await runsOf(app, 'task_deploy:build')
      const created = await singleMessage(await session.post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'task_deploy', arguments: { service: 'held' }, task: {} } }))
      const taskId = String((created.result?.task as Record<string, unknown>).taskId)
      await until(async () => (await runsOf(app, 'task_deploy:build')) === builds + 1, 'the build step')
      const result = await session.post({ jsonrpc: '2.0', id: 3, method: 'tasks/result', params: { taskId } })
      const stream = sseMessages(result)
      const question = await nextMessage(stream, 'the question')
      expect(question).toMatchObject({ method: 'elicitation/create', params: { message: 'Where should held go?', _meta: { [RELATED]: { taskId } } } })
      expect((await session.post({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { env: 'staging', replicas: 1 } } })).status).toBe(202)
      for await (const message of stream) {
        if (message.id === 3) expect(textOf(message.result)).toBe(`Deployed build-held to staging with 1 replicas (task ${taskId}).`)
      }
      expect(onGet.filter(message => message.method === 'elicitation/create')).toEqual([])
    }
    finally {
      closeGet.abort()
      await reading
      await session.close()
    }
  })

  it('pushes a task\'s question only once the client shows it holds the task, on the GET stream when no tasks/result is open', async () => {
    // A client that has not read the tools/call answer yet cannot tell which call a pushed
    // question belongs to (ext-tasks then answers "cancel"): the push waits for a tasks/* request.
    const session = await openRawLegacy(app, { elicitation: { form: {} }, tasks: {} })
    const get = await fetch(app.url, { headers: { 'accept': 'text/event-stream', 'mcp-session-id': session.id, 'mcp-protocol-version': '2025-11-25' } })
    const pushed = sseMessages(get)
    try {
      const builds = await runsOf(app, 'task_deploy:build')
      const created = await singleMessage(await session.post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'task_deploy', arguments: { service: 'raw' }, task: {} } }))
      const taskId = String((created.result?.task as Record<string, unknown>).taskId)
      // The handler has run its step and asked (in the same tick); nothing has been pushed.
      await until(async () => (await runsOf(app, 'task_deploy:build')) === builds + 1, 'the build step')
      // The first request pushed; notifications (the handler's log line) may go out before it.
      const first = (async () => {
        for (let next = await pushed.next(); !next.done; next = await pushed.next()) {
          if ('id' in next.value) return next.value
        }
        return undefined
      })()
      const early = await Promise.race([first.then(() => 'pushed'), new Promise(resolve => setTimeout(resolve, 300, 'nothing'))])
      expect(early).toBe('nothing')
      const status = await singleMessage(await session.post({ jsonrpc: '2.0', id: 3, method: 'tasks/get', params: { taskId } }))
      expect(status.result).toMatchObject({ taskId, status: 'input_required' })
      const question = await first
      if (!question) throw new Error('the GET stream ended before the question')
      expect(question).toMatchObject({ method: 'elicitation/create', params: { message: 'Where should raw go?', _meta: { [RELATED]: { taskId } } } })
      const answered = await session.post({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { env: 'staging', replicas: 1 } } })
      expect(answered.status).toBe(202)
      const result = await singleMessage(await session.post({ jsonrpc: '2.0', id: 4, method: 'tasks/result', params: { taskId } }))
      expect(textOf(result.result)).toBe(`Deployed build-raw to staging with 1 replicas (task ${taskId}).`)
    }
    finally {
      await pushed.return(undefined)
      await session.close()
    }
  })
})
