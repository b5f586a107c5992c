import type { H3Event } from 'h3'
import { useNitroApp, useRuntimeConfig } from 'nitropack/runtime'
import definitions from '#mcp-elicitation/definitions'
import { route } from '#mcp-elicitation/options'
import { createMcpEndpoint } from './transport/endpoint'
import type { McpEndpoint } from './transport/endpoint'
import type { McpServerConfig } from './common/config'
import type { McpSharedState } from './common/shared/shared-state'
import { recordElicitation } from './devtools/recorder'
import { onElicitationEvent } from './elicitation/events'

let endpoint: McpEndpoint | undefined
let shared: Promise<McpSharedState> | undefined

/**
 * The state the app's instances share, connected once per process; `undefined` without
 * `NUXT_MCP_REDIS_URL`, so the Redis client is then never loaded.
 *
 * @example
 * ```ts
 * const shared = useMcpSharedState(useRuntimeConfig().mcp)
 * ```
 */
export function useMcpSharedState(config: McpServerConfig): Promise<McpSharedState> | undefined {
  if (!config.redisUrl) return undefined
  shared ??= import('./common/shared/redis').then(({ connectRedisState }) => connectRedisState({ url: config.redisUrl, prefix: config.redisPrefix, route }))
  return shared
}

/**
 * The app's one MCP endpoint, created on first use (so a server that never serves MCP pays
 * nothing) and closed with Nitro.
 *
 * @example
 * ```ts
 * export default defineEventHandler(event => useMcpEndpoint(event).serve(event))
 * ```
 */
export function useMcpEndpoint(event: H3Event): McpEndpoint {
  if (endpoint) return endpoint
  const nitro = useNitroApp()
  const config = useRuntimeConfig(event).mcp as McpServerConfig
  const created = createMcpEndpoint({
    definitions,
    config,
    route,
    production: !import.meta.dev,
    authenticate: context => nitro.hooks.callHook('mcp:auth', context),
    verifyToken: context => nitro.hooks.callHook('mcp:auth:token', context),
    beforeRequest: context => nitro.hooks.callHook('mcp:request', context),
    shared: useMcpSharedState(config),
  })
  // Only `nuxi dev` records elicitations for the DevTools tab.
  const stopRecording = import.meta.dev && config.devtools ? onElicitationEvent(recordElicitation) : undefined
  nitro.hooks.hook('close', async () => {
    stopRecording?.()
    await created.close()
  })
  endpoint = created
  return created
}
