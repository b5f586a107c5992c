/**
 * The server room (`mcp/server/`): one SDK `Server` per legacy session or modern request (this
 * file), its request handlers (calls, reads, prompts, lists filtered by guards, completions),
 * resource subscriptions, list changes, and a session's values and lifecycle. It puts the other
 * rooms together; it must not know HTTP, the door or how instances share state (the transport
 * hands it what it needs).
 */
import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server'
import type { HandlerDeps } from './handlers'
import { installMcpHandlers } from './handlers'
import { verifyRequestState } from '../../elicitation/engine'
import type { McpEra } from '../../common/context'
import { installSubscriptionHandlers } from './subscriptions'
import { hiddenFrom } from '../definitions/guards'
import { getMcpScope } from '../../common/context'
import { TASKS_EXTENSION } from '../../tasks/store/wire'
import { APPS_CAPABILITY, APPS_EXTENSION } from '../views/apps'
import { extendServer } from '../observing/server-hook'

/**
 * Whether the endpoint advertises `listChanged`: when the app opts in (`mcp.listChanged`), or when
 * a definition has a guard, whose answer may change while a client holds a list.
 *
 * @example
 * ```ts
 * advertisesListChanged({ registry, config }) // true with any guarded definition
 * ```
 */
export function advertisesListChanged(deps: Pick<HandlerDeps, 'registry' | 'config'>): boolean {
  return deps.registry.guarded || deps.config.listChanged === true
}

/** How 2025-11-25 advertises tasks: its `tasks` capability (tools/call, list, cancel). */
const LEGACY_TASKS = { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }

/**
 * The extensions the endpoint speaks: tasks on 2026-07-28 (without it its clients never create
 * one; legacy has the capability above), MCP Apps in both eras when the app has views, and
 * skills in both eras when it has skills.
 */
function extensionsCapability(deps: HandlerDeps, era: McpEra) {
  const extensions = {
    ...(deps.tasks && era === 'modern' && { [TASKS_EXTENSION]: {} }),
    ...(deps.registry.views.size > 0 && { [APPS_EXTENSION]: APPS_CAPABILITY }),
    // Skills in both eras: 2025-11-25 has capabilities.extensions too, and the methods are plain requests.
    ...deps.registry.skills?.capability,
  }
  return Object.keys(extensions).length > 0 ? { extensions } : {}
}

/**
 * Builds one SDK `Server` with the module's handlers: one per legacy session, one per modern
 * request. Cheap by design: no per-definition work happens here.
 *
 * @example
 * ```ts
 * const server = createMcpServer({ registry, config, secret }, 'legacy')
 * ```
 */
export function createMcpServer(deps: HandlerDeps, era: McpEra): Server {
  const { config, secret } = deps
  const changes = advertisesListChanged(deps) ? { listChanged: true } : {}
  const server = new Server(
    { name: config.name, version: config.version },
    {
      // Resource subscriptions (resources/subscribe) exist on legacy sessions only; 2026-07-28
      // clients hear list changes on subscriptions/listen, which the SDK serves from these.
      capabilities: { tools: changes, resources: era === 'legacy' ? { subscribe: true, ...changes } : changes, prompts: changes, logging: {}, completions: {}, ...(deps.tasks && era === 'legacy' && LEGACY_TASKS), ...extensionsCapability(deps, era) },
      ...(config.instructions && { instructions: config.instructions }),
      requestState: { verify: state => verifyRequestState(secret, config.name, state, deps.scope) },
      // Legacy elicitation is pushed and awaited in place; never re-enter handlers on legacy.
      inputRequired: { legacyShim: false },
    },
  )
  installMcpHandlers(server, deps)
  deps.registry.skills?.install(server, () => deps.scope ?? getMcpScope())
  deps.tasks?.install(server, era, () => deps.scope ?? getMcpScope(), deps)
  if (era === 'legacy') {
    installSubscriptionHandlers(server, deps.route, deps.registry, hiddenFrom(() => deps.scope ?? getMcpScope()))
    // Name the method the client got wrong. (Modern requests keep the SDK's own HTTP 404 answer.)
    server.fallbackRequestHandler = async (request) => {
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `Method not found: "${request.method}" is not an MCP method this server serves. Check the method name, or the capabilities from initialize.`)
    }
  }
  // Last, so a listener finds the module's handlers in place and cannot replace them.
  const principal = (deps.scope ?? getMcpScope())?.principal
  extendServer(server, deps.serverHook, { endpoint: deps.route, era, ...(principal !== undefined && { principal }) })
  return server
}
