// The four ways in the chaos run drives: the v1 SDK `Client` (what most shipping hosts embed), the
// v2 SDK `Client` on a legacy session and pinned to the stateless 2026-07-28 revision, and
// Claude Desktop's bridge, mcp-remote, spawned over stdio. Each names its principal in `x-user`
// (the shared-state fixture's `mcp:auth` hook) and answers questions with `answer(message)`.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client'

/** The client kinds, in the order the table prints them. */
export const CLIENT_KINDS = ['v1', 'v2-legacy', 'v2-modern', 'mcp-remote']

const FORM = { elicitation: { form: {} } }

/** The reply a scripted person gives to `message`: derived from it, so a reply that reaches another question shows. */
export function replyTo(message) {
  return `reply to ${message}`
}

function answerWith(onQuestion) {
  return (request) => {
    const message = String(request.params.message)
    onQuestion(message)
    return { action: 'accept', content: { reply: replyTo(message) } }
  }
}

async function connectV1(url, user, onQuestion) {
  const client = new V1Client({ name: 'chaos-v1', version: '1.0.0' }, { capabilities: FORM })
  client.setRequestHandler(ElicitRequestSchema, answerWith(onQuestion))
  const transport = new V1Transport(url, { requestInit: { headers: { 'x-user': user } } })
  await client.connect(transport, { timeout: 10_000 })
  return {
    call: (args, timeout) => client.callTool({ name: 'chaos_call', arguments: args }, undefined, { timeout }),
    sessionId: () => transport.sessionId,
    close: () => client.close(),
  }
}

async function connectV2(url, user, onQuestion, mode) {
  const client = new V2Client({ name: `chaos-v2-${typeof mode === 'string' ? mode : 'modern'}`, version: '1.0.0' }, { capabilities: FORM, versionNegotiation: { mode } })
  client.setRequestHandler('elicitation/create', answerWith(onQuestion))
  const transport = new V2Transport(url, { requestInit: { headers: { 'x-user': user } } })
  await client.connect(transport, { timeout: 10_000 })
  return {
    call: (args, timeout) => client.callTool({ name: 'chaos_call', arguments: args }, { timeout }),
    sessionId: () => transport.sessionId,
    close: () => client.close(),
  }
}

/** mcp-remote's entry, as `npx mcp-remote` resolves it from its package.json `bin`. */
function mcpRemoteBin(root) {
  const dir = resolve(root, 'node_modules/mcp-remote')
  return join(dir, JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).bin['mcp-remote'])
}

async function connectMcpRemote(url, user, onQuestion, root) {
  const configDir = mkdtempSync(join(tmpdir(), 'chaos-mcp-remote-'))
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [mcpRemoteBin(root), url.href, '--transport', 'http-only', '--protocol', 'legacy', '--header', `x-user:${user}`],
    env: { MCP_REMOTE_CONFIG_DIR: configDir, HOME: configDir },
    stderr: 'ignore',
  })
  const client = new V1Client({ name: 'chaos-mcp-remote', version: '1.0.0' }, { capabilities: FORM })
  client.setRequestHandler(ElicitRequestSchema, answerWith(onQuestion))
  const close = async () => {
    await client.close().catch(() => {})
    rmSync(configDir, { recursive: true, force: true })
  }
  try {
    await client.connect(transport, { timeout: 20_000 })
  }
  catch (error) {
    await close()
    throw error
  }
  return {
    call: (args, timeout) => client.callTool({ name: 'chaos_call', arguments: args }, undefined, { timeout }),
    sessionId: () => undefined,
    close,
  }
}

/**
 * Connects a client of `kind` to `url` as `user`; `onQuestion(message)` hears every question it
 * answers.
 *
 * @example
 * const client = await connectChaosClient('v1', url, 'user-1', message => asked.push(message), root)
 * await client.call({ call: 'c1' }, 30_000)
 */
export function connectChaosClient(kind, url, user, onQuestion, root) {
  switch (kind) {
    case 'v1': return connectV1(url, user, onQuestion)
    case 'v2-legacy': return connectV2(url, user, onQuestion, 'legacy')
    case 'v2-modern': return connectV2(url, user, onQuestion, { pin: '2026-07-28' })
    case 'mcp-remote': return connectMcpRemote(url, user, onQuestion, root)
    default: throw new Error(`Unknown chaos client kind "${kind}": one of ${CLIENT_KINDS.join(', ')}.`)
  }
}
