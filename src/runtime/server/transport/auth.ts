import type { H3Event } from 'h3'
import type { AuthInfo } from '@modelcontextprotocol/server'

/** Thrown by `context.reject()` in an `mcp:auth` hook; the endpoint answers 401. */
export class McpUnauthorizedError extends Error {
  override readonly name = 'McpUnauthorizedError'
  constructor(message: string, readonly wwwAuthenticate: string) {
    super(message)
  }
}

/** What an `mcp:auth` hook receives: read the request, then set who is calling or reject. */
export interface McpAuthContext {
  event: H3Event
  /** A stable id of the caller (user id, API client id). Binds modern `requestState`. */
  principal?: string
  /** Passed to handlers as `context.authInfo` and to the SDK. */
  authInfo?: AuthInfo
  /** Refuses the request with 401 and a `WWW-Authenticate` header (default `Bearer realm="mcp"`). */
  reject: (message: string, wwwAuthenticate?: string) => never
}

/**
 * Builds the context handed to `mcp:auth` hooks.
 *
 * @example
 * ```ts
 * // server/plugins/mcp-auth.ts
 * export default defineNitroPlugin((nitro) => {
 *   nitro.hooks.hook('mcp:auth', async (auth) => {
 *     const user = await findUserByToken(getHeader(auth.event, 'authorization'))
 *     if (!user) auth.reject('A valid bearer token is required: send Authorization: Bearer <token>.')
 *     auth.principal = user.id
 *   })
 * })
 * ```
 */
export function createAuthContext(event: H3Event): McpAuthContext {
  return {
    event,
    reject(message, wwwAuthenticate = `Bearer realm="mcp", error="invalid_token", error_description="${message.replace(/["\\]/g, '')}"`) {
      throw new McpUnauthorizedError(message, wwwAuthenticate)
    },
  }
}

declare module 'nitropack/types' {
  interface NitroRuntimeHooks {
    /** Authenticate an MCP request: set `principal`/`authInfo`, or call `reject()`. */
    'mcp:auth': (context: McpAuthContext) => void | Promise<void>
  }
}
