import { Server } from '@modelcontextprotocol/server'
import type { HandlerDeps } from './handlers'
import { installMcpHandlers } from './handlers'
import { verifyRequestState } from './elicitation/engine'

/**
 * Builds one SDK `Server` with the module's handlers: one per legacy session, one per modern
 * request. Cheap by design: no per-definition work happens here.
 *
 * @example
 * ```ts
 * const server = createMcpServer({ registry, config, secret })
 * ```
 */
export function createMcpServer(deps: HandlerDeps): Server {
  const { config, secret } = deps
  const server = new Server(
    { name: config.name, version: config.version },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      ...(config.instructions && { instructions: config.instructions }),
      requestState: { verify: state => verifyRequestState(secret, state) },
      // Legacy elicitation is pushed and awaited in place; never re-enter handlers on legacy.
      inputRequired: { legacyShim: false },
    },
  )
  installMcpHandlers(server, deps)
  return server
}
