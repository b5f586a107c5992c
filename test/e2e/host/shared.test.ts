import { beforeAll, describe, expect, it } from 'vitest'
import type { RuntimeApp } from '../../../scripts/runtimes.mjs'
import type { RedisServer } from '../../../scripts/cluster.mjs'
import { countRedisClients, useCluster } from '../../utils/cluster'
import { until } from '../../utils/until'

// The host side on two instances sharing NUXT_MCP_REDIS_URL: a chat served by one instance is
// answered through the other (the browser's answer may reach any instance behind a balancer).
const cluster = useCluster('host', 2)
let redis: RedisServer
let instances: RuntimeApp[]

beforeAll(() => {
  ;({ redis, instances } = cluster())
})

interface Chunk { type: string, id?: string, data?: { status?: string, respondUrl?: string, action?: string, message?: string }, output?: unknown }

/** The UI message chunks of a chat response, as they come. */
async function* chunksOf(response: Response): AsyncGenerator<Chunk> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  for (;;) {
    const read = await reader.read()
    if (read.done) return
    buffer += read.value
    for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
      const data = buffer.slice(0, cut).replace(/^data: /, '')
      buffer = buffer.slice(cut + 2)
      if (data && data !== '[DONE]') yield JSON.parse(data) as Chunk
    }
  }
}

/** Starts the scripted chat on `instance` with `tool`; resolves with the pending elicitation and the rest of the stream. */
async function startChat(instance: RuntimeApp, tool: string) {
  const response = await fetch(new URL('/api/chat', instance.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tool, messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: `Run ${tool}` }] }] }),
  })
  expect(response.status).toBe(200)
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!
  const chunks = chunksOf(response)
  // (Not `for await`: leaving it would end the generator, and the test reads the rest later.)
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    const chunk = next.value
    if (chunk.type === 'data-mcp-elicitation' && chunk.data?.status === 'pending') return { cookie, pending: chunk, chunks }
  }
  throw new Error(`the chat ended without an elicitation:\n${instance.output().slice(-2000)}`)
}

function answer(instance: RuntimeApp, respondUrl: string, cookie: string, body: unknown): Promise<Response> {
  return fetch(new URL(respondUrl, instance.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-mcp-elicitation': '1', cookie },
    body: JSON.stringify(body),
  })
}

describe('the host\'s waiting elicitations shared through Redis', () => {
  it('a chat waiting on one instance is answered through the other', async () => {
    const [first, second] = instances
    const { cookie, pending, chunks } = await startChat(first!, 'delete_project')
    expect(pending.data?.message).toMatch(/Really delete the project "demo"/)
    const reply = await answer(second!, pending.data!.respondUrl!, cookie, { action: 'accept', content: { confirm: true } })
    expect(await reply.json()).toEqual({ ok: true, action: 'accept' })
    expect(reply.status).toBe(200)
    const rest: Chunk[] = []
    for await (const chunk of chunks) rest.push(chunk)
    expect(rest.find(chunk => chunk.type === 'data-mcp-elicitation')?.data).toMatchObject({ status: 'answered', action: 'accept' })
    expect(JSON.stringify(rest.find(chunk => chunk.type === 'tool-output-available')?.output)).toContain('Deleted demo.')
  })

  it('the first answer wins across instances; a late one, and another browser\'s, get 404 on either', async () => {
    const [first, second] = instances
    const { cookie, pending, chunks } = await startChat(second!, 'delete_project')
    const url = pending.data!.respondUrl!
    const stranger = await answer(first!, url, 'mcp_elicitation_owner=0123456789abcdef0123456789abcdef0123', { action: 'decline' })
    expect(stranger.status).toBe(404)
    const replies = await Promise.all([answer(first!, url, cookie, { action: 'decline' }), answer(second!, url, cookie, { action: 'decline' })])
    expect(replies.map(reply => reply.status).sort()).toEqual([200, 404])
    const rest: Chunk[] = []
    for await (const chunk of chunks) rest.push(chunk)
    expect(JSON.stringify(rest.find(chunk => chunk.type === 'tool-output-available')?.output)).toContain('Kept demo.')
  })

  it('says so when Redis is away (503 naming NUXT_MCP_REDIS_URL), and shares again once it is back', async () => {
    const [first, second] = instances
    const stranded = await startChat(first!, 'delete_project')
    // Both instances' connections (commands and subscriber each), counted before Redis goes away.
    const connected = await countRedisClients(redis)
    await redis.stop()
    const away = await answer(second!, stranded.pending.data!.respondUrl!, stranded.cookie, { action: 'accept', content: { confirm: true } })
    expect(away.status).toBe(503)
    expect((await away.json() as { error: string }).error).toMatch(/NUXT_MCP_REDIS_URL.*Send it again/)
    await redis.start()
    // (That Redis restarted empty: the stranded chat's entry is gone, and its wait ends with the
    // page closing, or its timeout.)
    await stranded.chunks.return(undefined)
    // Each instance reconnects by itself, on its own schedule: until both have, a chat's question
    // is answered `cancel` at once on the first, and an answer gets 503 on the second.
    await until(async () => await countRedisClients(redis) >= connected, `both instances connected to Redis again (${connected} connections)`, 15_000)
    const { cookie, pending, chunks } = await startChat(first!, 'delete_project')
    const reply = await answer(second!, pending.data!.respondUrl!, cookie, { action: 'decline' })
    expect(reply.status).toBe(200)
    const rest: Chunk[] = []
    for await (const chunk of chunks) rest.push(chunk)
    expect(JSON.stringify(rest.find(chunk => chunk.type === 'tool-output-available')?.output)).toContain('Kept demo.')
  }, 60_000)
})
