/**
 * Claude Desktop reaches HTTP servers through `mcp-remote`, a stdio ↔ HTTP bridge it spawns as
 * `npx mcp-remote <url>`. Here the real bridge is spawned the same way, by a v1 SDK `Client` over
 * stdio that declares elicitation, against the built `elicitation` fixture. A transparent recording
 * proxy sits between the bridge and the server so each test can show which protocol era was spoken.
 *
 * Two eras: the bridge's default (`--protocol legacy`, 2025-11-25 with a session), and
 * `--protocol auto`, where it probes `server/discover`, speaks 2026-07-28 to the server and turns
 * `input_required` rounds back into ordinary `elicitation/create` requests for the stdio client.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ScriptedAnswer } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { startRecorder } from '../../utils/recorder'
import { textOf } from '../../utils/clients'
import { mcpRemoteBin } from '../../utils/mcp-remote'
import { ASK_FORM_WIRE_SCHEMA } from '../../utils/expected'

// --- The stdio client, the way a desktop host spawns the bridge --------------------------------


let app: RunningFixture
let recorder: Awaited<ReturnType<typeof startRecorder>>
const configDir = mkdtempSync(join(tmpdir(), 'mcp-remote-e2e-'))

beforeAll(async () => {
  app = await startFixture('elicitation')
  recorder = await startRecorder(app.url)
})
afterAll(async () => {
  await recorder?.close()
  await app?.stop()
  rmSync(configDir, { recursive: true, force: true })
})

const eras = [
  { era: 'legacy', flags: ['--protocol', 'legacy'], wire: '2025-11-25' },
  { era: 'modern', flags: ['--protocol', 'auto'], wire: '2026-07-28' },
] as const

describe.each(eras)('mcp-remote $flags ($era era on the wire)', ({ era, flags, wire }) => {
  let client: Client
  let transport: StdioClientTransport
  let bridgeLog = ''
  let answer: (params: Record<string, unknown>) => ScriptedAnswer = () => ({ action: 'cancel' })
  let received: Record<string, unknown>[] = []
  let firstExchange = 0

  beforeAll(async () => {
    firstExchange = recorder.exchanges.length
    transport = new StdioClientTransport({
      command: process.execPath,
      // `--transport http-only`: never fall back to the old SSE transport. Plain http is allowed
      // for loopback hosts without `--allow-http`.
      args: [mcpRemoteBin(), recorder.url.href, '--transport', 'http-only', ...flags],
      env: {
        // Tokens, client registrations and debug logs go to MCP_REMOTE_CONFIG_DIR (default ~/.mcp-auth).
        MCP_REMOTE_CONFIG_DIR: join(configDir, era),
        HOME: configDir,
      },
      stderr: 'pipe',
    })
    transport.stderr?.on('data', (chunk: Buffer) => { bridgeLog += chunk.toString() })
    client = new Client({ name: 'claude-desktop-like', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } })
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      received.push(request.params)
      return answer(request.params)
    })
    try {
      await client.connect(transport)
    }
    catch (error) {
      throw new Error(`mcp-remote did not connect: ${String(error)}\n--- bridge log ---\n${bridgeLog}\n--- server log ---\n${app.output()}`)
    }
  }, 60_000)

  afterAll(async () => {
    const pid = transport?.pid
    await client?.close()
    if (pid !== null && pid !== undefined) {
      // The bridge must be gone once the host closes stdio.
      const deadline = Date.now() + 5000
      for (;;) {
        try {
          process.kill(pid, 0)
        }
        catch {
          break
        }
        if (Date.now() > deadline) {
          process.kill(pid, 'SIGKILL')
          throw new Error(`mcp-remote (pid ${pid}) outlived its stdio client`)
        }
        await new Promise(r => setTimeout(r, 50))
      }
    }
  }, 30_000)

  async function call(name: string, reply: (params: Record<string, unknown>) => ScriptedAnswer, args: Record<string, unknown> = {}) {
    answer = reply
    received = []
    const from = recorder.exchanges.length
    const result = await client.callTool({ name, arguments: args })
    return { result, text: textOf(result), wire: recorder.exchanges.slice(from) }
  }

  it(`speaks the ${era} era to the server`, () => {
    const seen = recorder.exchanges.slice(firstExchange)
    const methods = seen.flatMap(exchange => exchange.rpc)
    if (era === 'legacy') {
      // The bridge's own probe client initializes first, then the host's handshake goes through.
      expect(methods.filter(method => method === 'initialize').length).toBeGreaterThanOrEqual(2)
      expect(methods).not.toContain('server/discover')
      const forwarded = seen.find(exchange => exchange.rpc.includes('initialize') && exchange.requestBody.includes('claude-desktop-like (via mcp-remote'))
      expect(forwarded?.requestBody).toContain('"elicitation":{"form":{}}')
    }
    else {
      expect(methods).toContain('server/discover')
      expect(bridgeLog).toMatch(/Remote server speaks MCP 2026-07-28/)
    }
  })

  it('lists the fixture tools through the bridge', async () => {
    const from = recorder.exchanges.length
    const { tools } = await client.listTools()
    expect(tools.map(tool => tool.name)).toEqual(expect.arrayContaining(['ask_form', 'ask_confirm', 'ask_fallback', 'ask_supports']))
    const list = recorder.exchanges.slice(from).find(exchange => exchange.rpc.includes('tools/list'))
    expect(list?.protocolVersion).toBe(wire)
  })

  it('the server sees the elicitation capability the host declared', async () => {
    const { text } = await call('ask_supports', () => ({ action: 'cancel' }))
    expect(JSON.parse(text)).toEqual({ form: true, url: false })
  })

  it('confirm(): an accepted true arrives as "confirmed"', async () => {
    const { text, wire: traffic } = await call('ask_confirm', () => ({ action: 'accept', content: { confirm: true } }))
    expect(text).toBe('confirmed')
    expect(received).toHaveLength(1)
    expect(received[0]).toMatchObject({ message: 'Delete everything?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', default: false } } } })
    // The box defaults to unticked, so it is not required: a person can submit "no".
    expect(received[0]?.requestedSchema).not.toHaveProperty('required')
    const calls = traffic.filter(exchange => exchange.rpc.includes('tools/call'))
    if (era === 'legacy') {
      // One tools/call; the host's answer travels back as a JSON-RPC response POSTed on the session.
      expect(calls).toHaveLength(1)
      const answerPost = traffic.find(exchange => exchange.rpc.includes('(response)'))
      expect(answerPost?.requestBody).toMatch(/"action":"accept".*"confirm":true/)
      expect(calls[0]!.responseBody).toMatch(/elicitation\/create/)
    }
    else {
      // input_required, then the retry carrying the answer.
      expect(calls).toHaveLength(2)
      expect(calls.every(exchange => exchange.protocolVersion === '2026-07-28')).toBe(true)
      expect(calls[0]!.responseBody).toMatch(/input_required|inputRequests/)
      expect(calls[1]!.requestBody).toMatch(/"confirm":true/)
    }
  })

  it('form(): the accepted answer comes back parsed, with defaults applied', async () => {
    const { text } = await call('ask_form', () => ({ action: 'accept', content: { name: 'Ada', plan: 'pro', tags: ['a', 'c'] } }), { label: `mcp-remote-${era}` })
    expect(JSON.parse(text)).toEqual({ action: 'accept', content: { name: 'Ada', plan: 'pro', tags: ['a', 'c'], subscribe: true } })
    expect(received).toHaveLength(1)
    expect(received[0]!.message).toBe('Your details')
    expect(received[0]!.requestedSchema).toEqual(ASK_FORM_WIRE_SCHEMA)
  })

  it('decline: form() returns the decline without content, confirm() is false', async () => {
    const form = await call('ask_form', () => ({ action: 'decline' }))
    expect(JSON.parse(form.text)).toEqual({ action: 'decline' })
    expect(form.result.isError).not.toBe(true)
    const confirm = await call('ask_confirm', () => ({ action: 'decline' }))
    expect(confirm.text).toBe('not confirmed')
    expect(received).toHaveLength(1)
  })

  it('cancel: form() returns the cancel', async () => {
    const { text } = await call('ask_form', () => ({ action: 'cancel' }))
    expect(JSON.parse(text)).toEqual({ action: 'cancel' })
  })
}, 60_000)
