import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RuntimeApp } from '../../utils/fixture'
import { textOf } from '../../utils/clients'
import { useCluster } from '../../utils/cluster'
import { TASK_CAPABILITIES } from '../../utils/cluster-tasks'
import { startCutProxy } from '../../utils/cut-proxy'
import type { CutProxy } from '../../utils/cut-proxy'
import { startFixtureOn } from '../../utils/fixture'
import { postModern } from '../../utils/raw'
import { until } from '../../utils/until'

// The waiting instance cut off from Redis for 30 s (its command and subscriber connections both),
// while a legacy question (a v1 SDK Client waiting on elicitation/create) and a task (waiting on
// input) wait on it; both answers are given through another instance during the cut. The others
// hold it for gone after 6 s (ALIVE_TTL_MS) and take its task over; when it comes back, it reads
// its inbox (the legacy answer arrives, once), finds its task taken over and gives it up: every
// answer arrives exactly once, and no once() step runs twice (each writes a line in a file).
const cluster = useCluster('shared-state', 2)
const CUT_MS = 30_000
let proxy: CutProxy
let cut: RuntimeApp

beforeAll(async () => {
  proxy = await startCutProxy(new URL(cluster().redis.url))
  cut = await startFixtureOn('node', 'shared-state', { env: { NUXT_MCP_REDIS_URL: proxy.url.href, NUXT_MCP_STATE_SECRET: 'shared-state-test-secret-0123456789abcdefghij', NUXT_MCP_TRUSTED_PROXIES: '127.0.0.1' } })
}, 120_000)

afterAll(async () => {
  await cut?.stop()
  await proxy?.close()
})

function taskCall(url: URL, method: string, params: Record<string, unknown>) {
  const headers: Record<string, string> = { 'x-user': 'ada' }
  if (typeof params.taskId === 'string') headers['mcp-name'] = params.taskId
  return postModern(url, method, params, { capabilities: TASK_CAPABILITIES, headers })
}

function linesOf(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean)
  }
  catch {
    return []
  }
}

describe('an instance cut off from Redis for 30 s while a question and a task wait on it', () => {
  it('gets the legacy answer once it is back, gives its taken-over task up, and no answer or once() step counts twice', async () => {
    const onCut = new URL('/mcp', cut.origin)
    const other = cluster().instances[0]!
    const onOther = new URL('/mcp', other.origin)
    const dir = mkdtempSync(join(tmpdir(), 'cut-30s-'))
    const legacyFile = join(dir, 'legacy.log')
    const taskFile = join(dir, 'task.log')

    // The legacy question: a v1 Client whose session lives on the cut instance; its answer (a
    // JSON-RPC response) is POSTed to the other instance, as a balancer without affinity may.
    let asked = () => {}
    const question = new Promise<void>((resolve) => {
      asked = resolve
    })
    let release = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const answerStatuses: number[] = []
    const client = new Client({ name: 'cut-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } })
    client.setRequestHandler(ElicitRequestSchema, async () => {
      asked()
      await gate
      return { action: 'accept', content: { x: 'during the cut' } }
    })
    const transport = new StreamableHTTPClientTransport(onCut, {
      fetch: async (input, init) => {
        const body = typeof init?.body === 'string' ? init.body : ''
        const isAnswer = init?.method === 'POST' && body.includes('"result"') && !body.includes('"method"')
        const response = await fetch(isAnswer ? onOther : input, init)
        if (isAnswer) answerStatuses.push(response.status)
        return response
      },
    })
    await client.connect(transport)
    const legacyResult = client.callTool({ name: 'ask_noted', arguments: { label: 'legacy', file: legacyFile } }, undefined, { timeout: 120_000 })
    await question

    // The task: run on the cut instance, waiting on its question as the other instance sees it.
    const created = await taskCall(onCut, 'tools/call', { name: 'task_ship', arguments: { label: 'cut', file: taskFile } })
    const taskId = String(created.message.result?.taskId)
    await until(async () => (await taskCall(onOther, 'tasks/get', { taskId })).message.result?.status === 'input_required', 'the task\'s question, seen from the other instance', 15_000, 100)
    const [key] = Object.keys(((await taskCall(onOther, 'tasks/get', { taskId })).message.result?.inputRequests ?? {}) as Record<string, unknown>)
    expect(linesOf(taskFile)).toEqual([`charge cut ${cut.pid}`])

    // The cut: every connection of the cut instance to Redis, and each one it makes, for 30 s.
    const cutAt = Date.now()
    proxy.block()
    // Both answers go through the other instance while the cut lasts.
    release()
    await until(() => answerStatuses.length > 0, 'the legacy answer POSTed to the other instance', 10_000)
    expect(answerStatuses).toEqual([202])
    const updated = await taskCall(onOther, 'tasks/update', { taskId, inputResponses: { [String(key)]: { action: 'accept', content: { confirm: true } } } })
    expect(updated.message.result).toMatchObject({ resultType: 'complete' })

    // Held for gone after 6 s, the task is taken over by the other instance, which finishes it
    // with the answer kept: its first step is not run again, its second runs there.
    await until(async () => (await taskCall(onOther, 'tasks/get', { taskId })).message.result?.status === 'completed', 'the task taken over and completed on the other instance', 25_000, 500)
    expect(Date.now() - cutAt).toBeLessThan(CUT_MS)
    const done = (await taskCall(onOther, 'tasks/get', { taskId })).message.result
    expect(textOf(done?.result)).toBe(`cut: shipped by ${other.pid}`)
    // The legacy question still waits: its answer is in the cut instance's inbox.
    expect(linesOf(legacyFile)).toEqual([])

    await new Promise(resolve => setTimeout(resolve, CUT_MS - (Date.now() - cutAt)))
    proxy.restore()

    // Back: the legacy answer arrives, once.
    const result = await Promise.race([
      legacyResult,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the legacy answer never reached the question after the cut:\n${cut.output().slice(-3000)}`)), 20_000)),
    ])
    expect(textOf(result)).toBe(`legacy: accept on ${cut.pid}`)
    // It read the task's answer from its inbox too, and gave the task up rather than go on.
    await until(() => cut.output().includes(`Task ${taskId} was taken over by another instance`), 'the cut instance giving its task up', 15_000, 200)
    expect(linesOf(legacyFile)).toEqual([`legacy accept ${cut.pid}`])
    expect(linesOf(taskFile)).toEqual([`charge cut ${cut.pid}`, `ship cut ${other.pid}`])
    // The task stays as the instance that took it over ended it.
    const after = (await taskCall(onOther, 'tasks/get', { taskId })).message.result
    expect(after?.status).toBe('completed')
    expect(textOf(after?.result)).toBe(`cut: shipped by ${other.pid}`)
    await client.close()
  }, 150_000)
})
