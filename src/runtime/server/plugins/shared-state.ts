import { defineNitroPlugin, useRuntimeConfig } from 'nitropack/runtime'
import type { McpServerConfig } from '../common/config'
import { redactRedisUrl } from '../cluster/redact-redis-url'
import { mcpRoutes, useMcpEndpointAt, useMcpSharedState } from '../use-endpoint'

// With NUXT_MCP_REDIS_URL, connects to Redis when the server starts (one connection per endpoint,
// whose keys and channels carry its route), so a missing `ioredis` package or an unreachable Redis
// is said in the log at once, not at the first MCP request. The server starts either way: modern
// requests that need no shared state are served meanwhile, and the others get a 503 naming
// NUXT_MCP_REDIS_URL until Redis answers. Once connected, each endpoint is made, so an instance
// that has served no MCP request yet hears the others and passes on what the app raises here.
export default defineNitroPlugin((nitroApp) => {
  const config = useRuntimeConfig().mcp as McpServerConfig
  for (const route of mcpRoutes) {
    const connecting = useMcpSharedState(config, route)
    if (!connecting) return
    connecting.then(
      (state) => {
        console.info(`[nuxt-mcp-elicitation] State shared through Redis at ${redactRedisUrl(config.redisUrl)} (${route}, this instance: ${state.instanceId}).`)
        useMcpEndpointAt(route, config)
      },
      (error: unknown) => console.error(error instanceof Error ? error.message : error),
    )
    nitroApp.hooks.hook('close', async () => {
      await connecting.then(state => state.close(), () => {})
    })
  }
})
