// The real MCP clients the tests and the chaos run drive, made in one place: the v1 SDK `Client`
// (what most shipping hosts embed), the v2 SDK `Client` (either era), and Claude Desktop's bridge
// mcp-remote, spawned over stdio with a v1 `Client` in front. Plain .mjs so that the chaos run
// (plain node) and the TypeScript tests (through mcp-clients.d.mts) share them.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client'

/** How much of mcp-remote's stderr is kept for the error when it does not connect. */
const BRIDGE_LOG_LIMIT = 20_000

/**
 * A v1 SDK `Client` over Streamable HTTP; `onElicit(params)` answers elicitations.
 *
 * @example
 * const { client } = await connectV1(url, { name: 'test-legacy', capabilities: { elicitation: { form: {} } }, onElicit: () => ({ action: 'decline' }) })
 */
export async function connectV1(url, { name, capabilities = {}, onElicit, requestInit, timeout } = {}) {
  const client = new V1Client({ name: name ?? 'v1-client', version: '1.0.0' }, { capabilities })
  if (onElicit) client.setRequestHandler(ElicitRequestSchema, request => onElicit(request.params))
  const transport = new V1Transport(url, { requestInit })
  await client.connect(transport, timeout === undefined ? undefined : { timeout })
  return { client, transport }
}

/**
 * A v2 SDK `Client` over Streamable HTTP, its era chosen by `mode` (`{ pin: '2026-07-28' }`,
 * `'auto'` or `'legacy'`).
 *
 * @example
 * const { client } = await connectV2(url, { mode: { pin: '2026-07-28' }, onElicit: () => ({ action: 'cancel' }) })
 */
export async function connectV2(url, { name, capabilities = {}, onElicit, requestInit, mode, timeout } = {}) {
  const client = new V2Client({ name: name ?? 'v2-client', version: '1.0.0' }, { capabilities, ...(mode !== undefined && { versionNegotiation: { mode } }) })
  if (onElicit) client.setRequestHandler('elicitation/create', request => onElicit(request.params))
  const transport = new V2Transport(url, { requestInit })
  await client.connect(transport, timeout === undefined ? undefined : { timeout })
  return { client, transport }
}

/**
 * mcp-remote's entry under `root`/node_modules, read from its package.json `bin` as `npx
 * mcp-remote` would resolve it.
 *
 * @example
 * spawn(process.execPath, [mcpRemoteBin(root), url.href])
 */
export function mcpRemoteBin(root) {
  const packageDir = resolve(root, 'node_modules/mcp-remote')
  const bin = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'))?.bin?.['mcp-remote']
  if (typeof bin !== 'string') throw new Error(`${packageDir}/package.json has no "mcp-remote" bin: run npm install in ${root}.`)
  return join(packageDir, bin)
}

/**
 * Claude Desktop's way in: a v1 SDK `Client` over stdio to a spawned `mcp-remote <url>`, which
 * speaks HTTP to the server (`protocol` legacy, its default, or auto), with `headers` sent on
 * each request. Tokens and logs go to a fresh config dir, removed by `close()`.
 *
 * @example
 * const { client, close } = await connectMcpRemote(url, { root, onElicit: () => ({ action: 'decline' }) })
 */
export async function connectMcpRemote(url, { root, protocol = 'legacy', headers = {}, name, capabilities = { elicitation: { form: {} } }, onElicit, timeout } = {}) {
  const configDir = mkdtempSync(join(tmpdir(), 'mcp-remote-'))
  let log = ''
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [mcpRemoteBin(root), url.href, '--transport', 'http-only', '--protocol', protocol, ...Object.entries(headers).flatMap(([key, value]) => ['--header', `${key}:${value}`])],
    env: { MCP_REMOTE_CONFIG_DIR: configDir, HOME: configDir },
    stderr: 'pipe',
  })
  transport.stderr?.on('data', (chunk) => { log = (log + chunk.toString()).slice(-BRIDGE_LOG_LIMIT) })
  const client = new V1Client({ name: name ?? 'claude-desktop-like', version: '1.0.0' }, { capabilities })
  if (onElicit) client.setRequestHandler(ElicitRequestSchema, request => onElicit(request.params))
  const close = async () => {
    await client.close().catch(() => {})
    rmSync(configDir, { recursive: true, force: true })
  }
  try {
    await client.connect(transport, timeout === undefined ? undefined : { timeout })
  }
  catch (error) {
    await close()
    throw new Error(`mcp-remote did not connect: ${String(error)}\n--- bridge log ---\n${log}`)
  }
  return { client, close }
}
