import type { Server } from '@modelcontextprotocol/server'
import type { McpRequestScope } from '../../common/context'
import { allowedOf } from '../definitions/guards'
import type { McpRegistry } from '../definitions/registry'

/**
 * The list handlers of an endpoint where some definition has a guard: each list holds what the
 * caller may use, decided per request. (Without guards the precomputed lists are sent as they
 * are.) On 2026-07-28 the lists keep the SDK's default `cacheScope: 'private'`: they depend on
 * who asks, so no cache may share them across callers.
 *
 * @example
 * ```ts
 * if (registry.guarded) installGuardedLists(server, registry, () => getMcpScope())
 * ```
 */
export function installGuardedLists(server: Server, registry: McpRegistry, caller: () => McpRequestScope | undefined): void {
  const { lists } = registry
  server.setRequestHandler('tools/list', async () => ({ tools: await allowedOf(lists.tools, item => registry.tools.get(item.name)?.definition, caller()) }))
  server.setRequestHandler('resources/list', async () => ({ resources: await allowedOf(lists.resources, item => registry.resources.get(item.uri)?.definition, caller()) }))
  server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: await allowedOf(lists.templates, (_item, index) => registry.templates[index]?.definition, caller()) }))
  server.setRequestHandler('prompts/list', async () => ({ prompts: await allowedOf(lists.prompts, item => registry.prompts.get(item.name)?.definition, caller()) }))
}
