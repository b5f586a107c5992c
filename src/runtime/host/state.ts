import { useNitroApp, useRuntimeConfig } from 'nitropack/runtime'
import { isRecord } from '../server/common/is-record'
import { redactRedisUrl } from '../server/cluster/redact-redis-url'
import { openRedisState } from '../server/cluster/open-redis-state'
import { useMcpHostConfig } from './config'
import { createMcpMemoryElicitationRegistry } from './registry'
import type { McpElicitationRegistry } from './registry'
import { createSharedElicitationRegistry } from './shared-registry'

let registry: McpElicitationRegistry | undefined

/**
 * Replaces the registry every host route and the respond endpoint use (call it once, in a Nitro
 * plugin): to keep waiting elicitations in a store of your own. With `NUXT_MCP_REDIS_URL` set,
 * the default already shares them across instances: see docs/host.md.
 *
 * @example
 * ```ts
 * // server/plugins/mcp-host.ts
 * export default defineNitroPlugin(() => {
 *   setMcpElicitationRegistry(createMcpMemoryElicitationRegistry({ maxEntries: 1000 }))
 * })
 * ```
 */
export function setMcpElicitationRegistry(next: McpElicitationRegistry): void {
  registry = next
}

/** The Redis registry, on a connection of its own under the host's route, closed with Nitro. */
function connectSharedRegistry(url: string, prefix: string): McpElicitationRegistry {
  const route = useMcpHostConfig().route
  const state = openRedisState({ url, prefix, route }, 'the host cannot share its waiting elicitations through Redis')
  state.then(
    () => console.info(`[nuxt-mcp-elicitation] The host's waiting elicitations are shared through Redis at ${redactRedisUrl(url)}.`),
    (error: unknown) => console.error(error instanceof Error ? error.message : error),
  )
  useNitroApp().hooks.hook('close', async () => {
    await state.then(connected => connected.close(), () => {})
  })
  return createSharedElicitationRegistry(state)
}

/**
 * The registry in use: the one set with {@link setMcpElicitationRegistry}; otherwise, created on
 * first use, one shared by every instance through Redis when `NUXT_MCP_REDIS_URL` is set, or this
 * process's memory.
 *
 * @example
 * ```ts
 * const entry = await useMcpElicitationRegistry().get(id)
 * ```
 */
export function useMcpElicitationRegistry(): McpElicitationRegistry {
  if (registry) return registry
  const mcp: unknown = useRuntimeConfig().mcp
  const url = isRecord(mcp) && typeof mcp.redisUrl === 'string' ? mcp.redisUrl : ''
  const prefix = isRecord(mcp) && typeof mcp.redisPrefix === 'string' && mcp.redisPrefix ? mcp.redisPrefix : 'nuxt-mcp:'
  registry = url ? connectSharedRegistry(url, prefix) : createMcpMemoryElicitationRegistry()
  return registry
}
