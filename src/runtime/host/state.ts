import { createMemoryElicitationRegistry } from './registry'
import type { McpElicitationRegistry } from './registry'

let registry: McpElicitationRegistry | undefined

/**
 * Replaces the registry every host route and the respond endpoint use (call it once, in a Nitro
 * plugin). Needed when several server instances share the load: see docs/host.md.
 *
 * @example
 * ```ts
 * // server/plugins/mcp-host.ts
 * export default defineNitroPlugin(() => {
 *   setMcpElicitationRegistry(createRedisElicitationRegistry(redis))
 * })
 * ```
 */
export function setMcpElicitationRegistry(next: McpElicitationRegistry): void {
  registry = next
}

/**
 * The registry in use: the one set with {@link setMcpElicitationRegistry}, or a process-wide
 * in-memory one created on first use.
 *
 * @example
 * ```ts
 * const entry = await useMcpElicitationRegistry().get(id)
 * ```
 */
export function useMcpElicitationRegistry(): McpElicitationRegistry {
  registry ??= createMemoryElicitationRegistry()
  return registry
}
