import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postModern, runsOf } from '../../utils/raw'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'

const SECRET_A = 'a'.repeat(48)
const SECRET_B = 'b'.repeat(48)
let app: RunningFixture
let a1: RunningFixture
let a2: RunningFixture
let b: RunningFixture
let shortLived: RunningFixture
let otherServer: RunningFixture

beforeAll(async () => {
  ;[app, a1, a2, b, shortLived, otherServer] = await Promise.all([
    startFixture('elicitation'),
    startFixture('elicitation', { NUXT_MCP_STATE_SECRET: SECRET_A }),
    startFixture('elicitation', { NUXT_MCP_STATE_SECRET: SECRET_A }),
    startFixture('elicitation', { NUXT_MCP_STATE_SECRET: SECRET_B }),
    startFixture('elicitation', { NUXT_MCP_STATE_SECRET: SECRET_A, NUXT_MCP_ELICITATION_STATE_TTL_SECONDS: '1' }),
    // Another endpoint (another server name) that happens to share the secret.
    startFixture('elicitation', { NUXT_MCP_STATE_SECRET: SECRET_A, NUXT_MCP_NAME: 'another-server' }),
  ])
})
afterAll(async () => {
  await Promise.all([app, a1, a2, b, shortLived, otherServer].map(server => server?.stop()))
})

interface Round { state: string, keys: string[], status: number }

async function firstRound(server: RunningFixture, name: string, args: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Round> {
  const { status, message } = await postModern(server.url, 'tools/call', { name, arguments: args }, { headers })
  expect(message.result?.resultType).toBe('input_required')
  return { status, state: String(message.result?.requestState), keys: Object.keys(message.result?.inputRequests as object) }
}

function retry(server: RunningFixture, name: string, args: Record<string, unknown>, requestState: string, inputResponses: Record<string, unknown>, headers: Record<string, string> = {}) {
  return postModern(server.url, 'tools/call', { name, arguments: args, requestState, inputResponses }, { headers })
}

const ACCEPT_FORM = { action: 'accept', content: { name: 'Ada', plan: 'pro' } }

describe('modern requestState', () => {
  it('completes a round trip with the state echoed byte for byte', async () => {
    const round = await firstRound(app, 'ask_form', { label: 'ok' })
    expect(round.keys).toEqual(['q0'])
    const { message } = await retry(app, 'ask_form', { label: 'ok' }, round.state, { q0: ACCEPT_FORM })
    expect(message.result?.resultType ?? 'complete').toBe('complete')
    expect(JSON.parse((message.result?.content as { text: string }[])[0]!.text)).toMatchObject({ action: 'accept', content: { name: 'Ada' } })
  })

  it('sends questions started together in ONE round, under their keys', async () => {
    const round = await firstRound(app, 'ask_parallel', {})
    expect(round.keys.sort()).toEqual(['first', 'second'])
  })

  it('rejects a tampered state with -32602 and does not run the handler', async () => {
    const round = await firstRound(app, 'ask_form', { label: 'tamper' })
    const before = await runsOf(app, 'ask_form:tamper')
    const [version, body, mac] = round.state.split('.')
    const forged = JSON.parse(Buffer.from(body!, 'base64url').toString())
    forged.answers = { q0: { q: forged.asked.q0.q, r: ACCEPT_FORM } }
    const tampered = `${version}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${mac}`
    for (const state of [tampered, round.state.slice(0, -4), 'garbage', `${round.state}x`]) {
      const { status, message } = await retry(app, 'ask_form', { label: 'tamper' }, state, { q0: ACCEPT_FORM })
      expect(status).toBe(200)
      expect(message.error?.code).toBe(-32602)
      expect(message.error?.message).toMatch(/requestState/)
    }
    expect(await runsOf(app, 'ask_form:tamper')).toBe(before)
  })

  it('rejects a state replayed on another tool or with other arguments', async () => {
    const round = await firstRound(app, 'ask_form', { label: 'bound' })
    const otherArgs = await retry(app, 'ask_form', { label: 'other' }, round.state, { q0: ACCEPT_FORM })
    expect(otherArgs.message.error?.code).toBe(-32602)
    const otherTool = await retry(app, 'ask_confirm', {}, round.state, { q0: { action: 'accept', content: { confirm: true } } })
    expect(otherTool.message.error?.code).toBe(-32602)
  })

  it('rejects a state replayed by another principal', async () => {
    const round = await firstRound(app, 'whoami', {}, { 'x-user': 'alice' })
    const bob = await retry(app, 'whoami', {}, round.state, { q0: { action: 'accept', content: { ok: true } } }, { 'x-user': 'bob' })
    expect(bob.message.error?.code).toBe(-32602)
    const alice = await retry(app, 'whoami', {}, round.state, { q0: { action: 'accept', content: { ok: true } } }, { 'x-user': 'alice' })
    expect((alice.message.result?.content as { text: string }[])[0]!.text).toBe('alice:accept')
  })

  it('completes across two instances sharing NUXT_MCP_STATE_SECRET, and is refused by one with another secret', async () => {
    const round = await firstRound(a1, 'ask_form', { label: 'multi' })
    const onB = await retry(b, 'ask_form', { label: 'multi' }, round.state, { q0: ACCEPT_FORM })
    expect(onB.message.error?.code).toBe(-32602)
    const onA2 = await retry(a2, 'ask_form', { label: 'multi' }, round.state, { q0: ACCEPT_FORM })
    expect(onA2.message.result?.resultType ?? 'complete').toBe('complete')
  })

  it('is refused by another endpoint that shares the secret (the server name and route are signed too)', async () => {
    const round = await firstRound(a1, 'ask_form', { label: 'domain' })
    const elsewhere = await retry(otherServer, 'ask_form', { label: 'domain' }, round.state, { q0: ACCEPT_FORM })
    expect(elsewhere.message.error?.code).toBe(-32602)
  })

  it('binds to the token subject when the auth hook sets only authInfo, never to the shared client id', async () => {
    const round = await firstRound(app, 'whoami', {}, { 'x-token-sub': 'dana' })
    const otherUserSameApp = await retry(app, 'whoami', {}, round.state, { q0: { action: 'accept', content: { ok: true } } }, { 'x-token-sub': 'erin' })
    expect(otherUserSameApp.message.error?.code).toBe(-32602)
    const dana = await retry(app, 'whoami', {}, round.state, { q0: { action: 'accept', content: { ok: true } } }, { 'x-token-sub': 'dana' })
    expect((dana.message.result?.content as { text: string }[])[0]!.text).toBe('dana:accept')
  })

  it('warns once when the auth hook sets authInfo without any subject', async () => {
    await firstRound(app, 'whoami', {}, { 'x-token-sub': '' })
    await firstRound(app, 'whoami', {}, { 'x-token-sub': '' })
    const warnings = app.output().split('\n').filter(line => line.includes('authInfo without a subject'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/auth\.principal/)
  })

  it('refuses to start in production with a state secret under 32 bytes, naming the variable', async () => {
    const error = await startFixture('basic', { NUXT_MCP_STATE_SECRET: 'only-24-bytes-of-secret!' }).then(
      async (server) => {
        await server.stop()
        return undefined
      },
      (failure: unknown) => failure,
    )
    expect(String(error)).toMatch(/exited before it answered/)
    expect(String(error)).toMatch(/NUXT_MCP_STATE_SECRET is 24 bytes long; at least 32/)
  })

  it('rejects an expired state', async () => {
    const round = await firstRound(shortLived, 'ask_form', { label: 'expire' })
    await new Promise(resolve => setTimeout(resolve, 2100))
    const late = await retry(shortLived, 'ask_form', { label: 'expire' }, round.state, { q0: ACCEPT_FORM })
    expect(late.message.error?.code).toBe(-32602)
  })

  it('answers malformed inputResponses with -32602 naming the key, and ignores unknown keys', async () => {
    const round = await firstRound(app, 'ask_form', { label: 'malformed' })
    for (const bad of [{ action: 'maybe' }, { action: 'decline', content: { name: 'x' } }, { action: 'accept', content: { name: { nested: true } } }]) {
      const { message } = await retry(app, 'ask_form', { label: 'malformed' }, round.state, { q0: bad })
      expect(message.error?.code).toBe(-32602)
      expect(message.error?.message).toMatch(/q0/)
    }
    const extra = await retry(app, 'ask_form', { label: 'malformed' }, round.state, { q0: ACCEPT_FORM, zzz: { action: 'accept' } })
    expect(extra.message.result?.resultType ?? 'complete').toBe('complete')
  })

  it('asks again when the retry carries no answer for the key', async () => {
    const round = await firstRound(app, 'ask_form', { label: 'missing' })
    const again = await retry(app, 'ask_form', { label: 'missing' }, round.state, {})
    expect(again.message.result?.resultType).toBe('input_required')
    expect(Object.keys(again.message.result?.inputRequests as object)).toEqual(['q0'])
  })
})

describe('mcp:auth hook', () => {
  it('answers a rejected request with 401, WWW-Authenticate and the hook\'s message', async () => {
    const { status, headers, message } = await postModern(app.url, 'tools/list', {}, { headers: { 'x-user': 'blocked' } })
    expect(status).toBe(401)
    expect(headers.get('www-authenticate')).toMatch(/^Bearer realm="mcp"/)
    expect(message.error?.message).toMatch(/This user is blocked/)
  })

  it('passes the principal to handlers', async () => {
    const round = await firstRound(app, 'whoami', {}, { 'x-user': 'carol' })
    const done = await retry(app, 'whoami', {}, round.state, { q0: { action: 'decline' } }, { 'x-user': 'carol' })
    expect((done.message.result?.content as { text: string }[])[0]!.text).toBe('carol:decline')
  })
})

describe('legacy sessions and principals', () => {
  it('refuses a session opened by one principal to another, with 403', async () => {
    const headers = { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream' }
    const init = await fetch(app.url, { method: 'POST', headers: { ...headers, 'x-user': 'alice' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }) })
    const id = init.headers.get('mcp-session-id')!
    await init.body?.cancel()
    const list = (user: string) => fetch(app.url, { method: 'POST', headers: { ...headers, 'x-user': user, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) })
    const asBob = await list('bob')
    expect(asBob.status).toBe(403)
    expect(await asBob.text()).toMatch(/another principal/)
    const asAlice = await list('alice')
    expect(asAlice.status).toBe(200)
    await asAlice.body?.cancel()
  })
})
