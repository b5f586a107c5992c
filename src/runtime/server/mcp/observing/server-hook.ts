import type { Server, ServerContext, StandardSchemaV1 } from '@modelcontextprotocol/server'
import type { McpEra } from '../../common/context'
import type { McpHook } from '../../common/hooks'

/**
 * Method names the MCP spec defines, by their namespace: the module (or the SDK under it) serves
 * them behind its guards and capabilities, so a listener may not add or replace one. `skills/` is
 * reserved by the skills extension (SEP-2640), which the module serves from `server/mcp/skills/`.
 */
const SPEC_METHOD = /^(?:initialize|ping|(?:tools|resources|prompts|completion|logging|tasks|elicitation|sampling|roots|server|subscriptions|notifications|skills)\/)/

type InferHandlerResult<R> = R extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<R> : Record<string, unknown>

/**
 * The payload of the `mcp:server` hook (declared in hooks.ts): one SDK server was just built, for a legacy session (at
 * its `initialize`, or when another instance takes the session over) or for one modern request.
 * A listener may add handlers for methods of its own; it may not replace the module's, which
 * would bypass its guards.
 */
export interface McpServerEvent {
  /** The route of the endpoint (`/mcp`, `/mcp/admin`, …). */
  endpoint: string
  era: McpEra
  /** Who the server is built for (your `mcp:auth` hook or OAuth), when known. */
  principal?: string
  /**
   * Adds a handler for a request method of your own: namespaced (`acme/search`), never one the
   * spec defines or the server already serves. `params` is validated by your schema (any
   * Standard Schema: Zod, Valibot, ArkType); the handler gets the SDK's context (`http.authInfo`,
   * `mcpReq.signal`). Only while the hook runs: an addition after an `await` is refused.
   */
  addRequestHandler: <P extends StandardSchemaV1, R extends StandardSchemaV1 | undefined = undefined>(
    method: string,
    schemas: { params: P, result?: R },
    handler: (params: StandardSchemaV1.InferOutput<P>, ctx: ServerContext) => InferHandlerResult<R> | Promise<InferHandlerResult<R>>,
  ) => void
  /** Adds a handler for a notification method of your own, on the same terms. */
  addNotificationHandler: <P extends StandardSchemaV1>(method: string, schemas: { params: P }, handler: (params: StandardSchemaV1.InferOutput<P>) => void | Promise<void>) => void
}

function refuse(method: string, why: string): never {
  throw new Error(`[nuxt-mcp-elicitation] An mcp:server hook tried to add a handler for "${method}", ${why}`)
}

/**
 * Lets the app's `mcp:server` listeners add their own handlers to a server just built, when
 * anyone listens (a modern request builds a server each: nobody listening costs one check). The
 * hook calls its listeners synchronously, so additions are closed as soon as it returns.
 *
 * @example
 * ```ts
 * const server = new Server(info, options)
 * installMcpHandlers(server, deps)
 * extendServer(server, deps.serverHook, { endpoint: '/mcp', era: 'modern' })
 * ```
 */
export function extendServer(server: Server, hook: McpHook<McpServerEvent> | undefined, about: Pick<McpServerEvent, 'endpoint' | 'era' | 'principal'>): void {
  if (!hook?.listening()) return
  let open = true
  const check = (method: string) => {
    if (!open) refuse(method, 'after the hook returned. Add handlers synchronously, before any `await` in the listener.')
    if (SPEC_METHOD.test(method)) refuse(method, 'a method the MCP spec defines: the module serves those, behind its guards. Name your own methods in a namespace of yours, e.g. "acme/search".')
    if (!method.includes('/')) refuse(method, 'a name without a namespace. Name it "<your-namespace>/<method>", e.g. "acme/search", so it can never meet a spec method.')
  }
  const event: McpServerEvent = {
    ...about,
    addRequestHandler: (method, schemas, handler) => {
      check(method)
      try {
        server.assertCanSetRequestHandler(method)
      }
      catch {
        refuse(method, 'a method this server already serves (another listener added it). Add each method once.')
      }
      server.setRequestHandler(method, schemas, handler)
    },
    addNotificationHandler: (method, schemas, handler) => {
      check(method)
      server.setNotificationHandler(method, schemas, params => handler(params))
    },
  }
  try {
    hook.call(event)
  }
  catch (error) {
    // A listener's mistake must not take the endpoint down: the server is built without it.
    console.error('[nuxt-mcp-elicitation] an mcp:server hook threw; the server is built without what it did not add:', error)
  }
  finally {
    open = false
  }
}
