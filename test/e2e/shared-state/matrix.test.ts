import { describe, expect, it } from 'vitest'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import type { Answerer, ScriptedAnswer } from '../../utils/clients'
import { PUBLIC_HOST, useCluster } from '../../utils/cluster'
import { connectMcpRemote } from '../../utils/mcp-remote'
import { postRaw } from '../../utils/raw'

// The elicitation matrix through nginx round-robin over two instances sharing Redis, with each
// client a shipping host embeds: every answer is a request of its own, so it reaches the other
// instance than the question's about every second time.
const cluster = useCluster('shared-state', 2)

interface Connected {
  callTool: (params: { name: string, arguments: Record<string, unknown> }) => Promise<unknown>
  close: () => Promise<void>
}

const CLIENTS: { name: string, connect: (answer: Answerer, received: Record<string, unknown>[]) => Promise<Connected> }[] = [
  { name: 'v1 Client (legacy)', connect: (answer, received) => connectLegacy(cluster().url, { answer, received }) },
  { name: 'v2 Client, auto', connect: (answer, received) => connectModern(cluster().url, { answer, received }, 'auto') },
  { name: 'v2 Client, pinned to 2026-07-28', connect: (answer, received) => connectModern(cluster().url, { answer, received }, 'pinned') },
  {
    name: 'mcp-remote (legacy)',
    connect: async (answer, received) => {
      const { client, close } = await connectMcpRemote(cluster().url, (params) => {
        received.push(params)
        return answer(params)
      })
      return { callTool: params => client.callTool(params), close }
    },
  },
]

/** Answers in turn: the nth question gets the nth answer (the last one repeats). */
function inTurn(...answers: ScriptedAnswer[]): Answerer {
  let asked = 0
  return () => answers[Math.min(asked++, answers.length - 1)]!
}

describe.each(CLIENTS)('$name through the load balancer', ({ connect }) => {
  it('form: accept, decline and cancel each come back to the call', async () => {
    const received: Record<string, unknown>[] = []
    const client = await connect(inTurn({ action: 'accept', content: { name: 'Ada', plan: 'pro' } }, { action: 'decline' }, { action: 'cancel' }), received)
    try {
      expect(JSON.parse(textOf(await client.callTool({ name: 'ask_form', arguments: {} })))).toEqual({ action: 'accept', content: { name: 'Ada', plan: 'pro', subscribe: true } })
      expect(JSON.parse(textOf(await client.callTool({ name: 'ask_form', arguments: {} })))).toEqual({ action: 'decline' })
      expect(JSON.parse(textOf(await client.callTool({ name: 'ask_form', arguments: {} })))).toEqual({ action: 'cancel' })
    }
    finally {
      await client.close()
    }
  })

  it('an invalid answer is asked again; confirm; two questions in one call', async () => {
    const received: Record<string, unknown>[] = []
    const client = await connect(inTurn(
      { action: 'accept', content: { name: 'A', plan: 'gold' } },
      { action: 'accept', content: { name: 'Ada', plan: 'free' } },
      { action: 'accept', content: { confirm: true } },
      { action: 'accept', content: { first: 'Ada' } },
      { action: 'accept', content: { last: 'Lovelace' } },
    ), received)
    try {
      expect(JSON.parse(textOf(await client.callTool({ name: 'ask_form', arguments: {} }))).content).toEqual({ name: 'Ada', plan: 'free', subscribe: true })
      expect(String(received[1]?.message)).toMatch(/Please correct/)
      expect(textOf(await client.callTool({ name: 'ask_later', arguments: {} }))).toBe('confirmed')
      expect(textOf(await client.callTool({ name: 'ask_two_rounds', arguments: {} }))).toBe('Ada Lovelace')
      expect(received).toHaveLength(5)
    }
    finally {
      await client.close()
    }
  })
})

describe('several clients at once', () => {
  it('serves eight sessions asking at the same time, each getting its own answer', async () => {
    const names = ['Ada', 'Grace', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Alan', 'Radia']
    const results = await Promise.all(names.map(async (name, index) => {
      const answer: Answerer = () => ({ action: 'accept', content: { name, plan: 'pro' } })
      const client = index % 2 ? await connectModern(cluster().url, { answer }, 'pinned') : await connectLegacy(cluster().url, { answer })
      try {
        return JSON.parse(textOf(await client.callTool({ name: 'ask_form', arguments: {} }))).content.name
      }
      finally {
        await client.close()
      }
    }))
    expect(results).toEqual(names)
  })
})

describe('a cancellation that reaches the other instance', () => {
  it('ends the wait on the instance that asked', async () => {
    const controller = new AbortController()
    const client = await connectLegacy(cluster().url, {
      answer: () => {
        // The person closes the dialog: the client cancels the call instead of answering.
        controller.abort()
        return new Promise<ScriptedAnswer>(() => {})
      },
    })
    try {
      await expect(client.callTool({ name: 'ask_wait', arguments: { label: 'cancelled-elsewhere' } }, undefined, { signal: controller.signal })).rejects.toThrow()
      const deadline = Date.now() + 5000
      let outcome: string | undefined
      while (Date.now() < deadline && !outcome?.startsWith('cancelled')) {
        const states = await Promise.all(cluster().instances.map(async instance => (await (await fetch(new URL('/outcomes', instance.origin))).json()) as { outcomes: Record<string, string> }))
        outcome = states.map(state => state.outcomes['cancelled-elsewhere']).find(Boolean)
        await new Promise(done => setTimeout(done, 100))
      }
      expect(outcome).toBe('cancelled')
    }
    finally {
      await client.close()
    }
  })
})

describe('the public name through nginx', () => {
  it('passes the Host of NUXT_MCP_PUBLIC_URL and refuses another DNS name', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })
    const headers = (host: string) => ({ 'host': host, 'content-type': 'application/json', 'accept': 'application/json, text/event-stream' })
    expect((await postRaw(cluster().url, headers(`${PUBLIC_HOST}:${cluster().lb.port}`), body)).status).toBe(200)
    const refused = await postRaw(cluster().url, headers(`evil.example:${cluster().lb.port}`), body)
    expect(refused.status).toBe(403)
    expect(refused.body).toMatch(/NUXT_MCP_PUBLIC_URL/)
  })
})
