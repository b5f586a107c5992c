import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import type { Answerer } from './clients'
import { repoRoot } from './fixture'

/** mcp-remote's entry, read from its package.json `bin` as `npx mcp-remote` would resolve it. */
export function mcpRemoteBin(): string {
  const packageDir = resolve(repoRoot, 'node_modules/mcp-remote')
  const manifest: unknown = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'))
  if (typeof manifest === 'object' && manifest !== null && 'bin' in manifest && typeof manifest.bin === 'object' && manifest.bin !== null && 'mcp-remote' in manifest.bin && typeof manifest.bin['mcp-remote'] === 'string')
    return join(packageDir, manifest.bin['mcp-remote'])
  throw new Error('mcp-remote package.json has no "mcp-remote" bin')
}

/**
 * Claude Desktop's way in: a v1 SDK `Client` over stdio to a spawned `mcp-remote <url>`, which
 * speaks HTTP to the server (`--protocol legacy`, its default, or `auto`). Answers elicitations
 * with `answer`. Tokens and logs go to a fresh config dir.
 *
 * @example
 * ```ts
 * const { client, close } = await connectMcpRemote(url, () => ({ action: 'decline' }))
 * ```
 */
export async function connectMcpRemote(url: URL, answer: Answerer, protocol: 'legacy' | 'auto' = 'legacy'): Promise<{ client: Client, close: () => Promise<void> }> {
  const configDir = mkdtempSync(join(tmpdir(), 'mcp-remote-'))
  let log = ''
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [mcpRemoteBin(), url.href, '--transport', 'http-only', '--protocol', protocol],
    env: { MCP_REMOTE_CONFIG_DIR: configDir, HOME: configDir },
    stderr: 'pipe',
  })
  transport.stderr?.on('data', (chunk: Buffer) => { log += chunk.toString() })
  const client = new Client({ name: 'claude-desktop-like', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } })
  client.setRequestHandler(ElicitRequestSchema, request => answer(request.params))
  const close = async () => {
    await client.close().catch(() => {})
    rmSync(configDir, { recursive: true, force: true })
  }
  try {
    await client.connect(transport)
  }
  catch (error) {
    await close()
    throw new Error(`mcp-remote did not connect: ${String(error)}\n--- bridge log ---\n${log}`)
  }
  return { client, close }
}
