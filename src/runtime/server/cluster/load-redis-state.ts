import type { RedisStateOptions } from './redis'
import type { McpSharedState } from './shared-state'

/**
 * Connects the state shared through Redis, loading the Redis side (and `ioredis`) only now. Handed
 * to the runtime by the build as `#mcp-elicitation/redis`: a build for a preset that cannot open
 * TCP connections (Cloudflare Workers) gets `undefined` instead, and none of the Redis code.
 *
 * @example
 * ```ts
 * const state = await connectSharedState({ url: 'redis://127.0.0.1:6379', prefix: 'mcp:', route: '/mcp' })
 * ```
 */
export async function connectSharedState(options: RedisStateOptions): Promise<McpSharedState> {
  const { connectRedisState } = await import('./redis')
  return connectRedisState(options)
}
