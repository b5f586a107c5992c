import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server'
import type { HandlerDeps } from './handlers'
import { installMcpHandlers } from './handlers'
import { verifyRequestState } from '../elicitation/engine'
import type { McpEra } from '../common/context'
import { installSubscriptionHandlers } from './subscriptions'

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
  const server = new Server(
    { name: config.name, version: config.version },
    {
      // Resource subscriptions exist on legacy sessions only: 2026-07-28 replaced them with
      // subscriptions/listen, which this module does not advertise.
      capabilities: { tools: {}, resources: era === 'legacy' ? { subscribe: true } : {}, prompts: {}, logging: {}, completions: {} },
      ...(config.instructions && { instructions: config.instructions }),
      requestState: { verify: state => verifyRequestState(secret, config.name, state, deps.scope) },
      // Legacy elicitation is pushed and awaited in place; never re-enter handlers on legacy.
      inputRequired: { legacyShim: false },
    },
  )
  installMcpHandlers(server, deps)
  if (era === 'legacy') {
    installSubscriptionHandlers(server, deps.registry)
    // Name the method the client got wrong. (Modern requests keep the SDK's own HTTP 404 answer.)
    server.fallbackRequestHandler = async (request) => {
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `Method not found: "${request.method}" is not an MCP method this server serves. Check the method name, or the capabilities from initialize.`)
    }
  }
  return server
}
