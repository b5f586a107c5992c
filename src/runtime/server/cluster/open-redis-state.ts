import { connectSharedState } from '#mcp-elicitation/redis'
import type { RedisStateOptions } from './redis'
import type { McpSharedState } from './shared-state'

/**
 * The state shared through Redis for `NUXT_MCP_REDIS_URL`, or a rejection that says why a build
 * for a preset without TCP connections (Cloudflare Workers) has none: the one place both the
 * endpoints and the host go through, whatever the build left in (`#mcp-elicitation/redis`).
 *
 * @example
 * ```ts
 * const state = openRedisState({ url, prefix: 'mcp:', route: '/mcp' }, 'it cannot share state through Redis')
 * ```
 */
export function openRedisState(options: RedisStateOptions, without: string): Promise<McpSharedState> {
  if (connectSharedState) return connectSharedState(options)
  return Promise.reject(new Error(`[nuxt-mcp-elicitation] NUXT_MCP_REDIS_URL is set, but this build's preset cannot open TCP connections, so ${without}: unset it, or deploy on a long-lived server (node-server).`))
}
