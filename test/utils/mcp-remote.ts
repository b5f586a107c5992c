import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { connectMcpRemote as spawnBridge, mcpRemoteBin as binUnder } from '../../scripts/mcp-clients.mjs'
import type { Answerer } from './clients'
import { repoRoot } from './fixture'

/** This repository's mcp-remote entry (scripts/mcp-clients.mjs). */
export function mcpRemoteBin(): string {
  return binUnder(repoRoot)
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
export function connectMcpRemote(url: URL, answer: Answerer, protocol: 'legacy' | 'auto' = 'legacy'): Promise<{ client: Client, close: () => Promise<void> }> {
  return spawnBridge(url, { root: repoRoot, protocol, onElicit: params => answer(params) })
}
