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
  /** The route of the endpoint asked (`/mcp`, or another endpoint's such as `/mcp/admin`): each may have its own rule. */
  route: string
  /**
   * A stable id of the caller (user id, API client id). Binds legacy sessions and modern
   * `requestState`. Left unset with `authInfo` set, the token's `authInfo.extra.sub` is used.
   */
  principal?: string
  /** Passed to handlers as `context.authInfo` and to the SDK. */
  authInfo?: AuthInfo
  /** Refuses the request with 401 and a `WWW-Authenticate` header (default `Bearer realm="mcp"`). */
  reject: (message: string, wwwAuthenticate?: string) => never
}

/** Who is calling, once authentication is done: both unset for an anonymous caller. */
export interface McpCaller {
  principal?: string
  authInfo?: AuthInfo
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
 *     if (auth.route === '/mcp/admin' && !user.isAdmin) auth.reject('The admin endpoint is for administrators.')
 *     auth.principal = user.id
 *   })
 * })
 * ```
 */
export function createAuthContext(event: H3Event, route: string): McpAuthContext {
  return {
    event,
    route,
    reject(message, wwwAuthenticate = `Bearer realm="mcp", error="invalid_token", error_description="${message.replace(/["\\]/g, '')}"`) {
      throw new McpUnauthorizedError(message, wwwAuthenticate)
    },
  }
}

/** The claims an app vouches for when it recognises an opaque access token. */
export interface McpTokenClaims {
  [claim: string]: unknown
  /** The user (or, for a machine token, the client): becomes the principal. */
  sub?: string
  client_id?: string
  /** Space-separated scopes, checked against `mcp.auth.scopes`. */
  scope?: string
  /** Expiry (seconds since the epoch); an expired token is refused. */
  exp?: number
  /**
   * When given, must be one of the endpoint's accepted audiences; required where the endpoint
   * sets its own `auth.audiences`.
   */
  aud?: string | string[]
  iss?: string
}

/**
 * What an `mcp:auth:token` hook receives: an access token that is not a JWT, while `mcp.auth` is
 * on, and the endpoint it is judged for (`route`, and its OAuth `resource` identifier). Set
 * `claims` to accept it; leave them unset to pass it on (to introspection, else refusal).
 *
 * @example
 * ```ts
 * // server/plugins/mcp-api-keys.ts
 * export default defineNitroPlugin((nitro) => {
 *   nitro.hooks.hook('mcp:auth:token', async (context) => {
 *     const key = await findApiKey(context.token)
 *     // A key opens the endpoint it was made for, not every endpoint with the same scopes.
 *     if (key && key.endpoint === context.route) context.claims = { sub: key.userId, scope: key.scopes.join(' '), exp: key.expiresAt }
 *   })
 * })
 * ```
 */
export interface McpTokenContext {
  token: string
  event: H3Event
  /** The endpoint's route (`/mcp`, `/mcp/admin`). */
  route: string
  /** The endpoint's resource identifier (RFC 8707), which a key's `aud` may name. */
  resource: string
  claims?: McpTokenClaims
}

let missingSubjectWarned = false

/**
 * After the `mcp:auth` hooks: a hook that described the token (`authInfo`) but named no
 * `principal` gets the token's subject (`authInfo.extra.sub`) as principal, so sessions and
 * `requestState` are bound to the user. Never the client id: every user of one app shares it.
 * Without a subject the request stays unbound, and the first such request is logged. An empty
 * `principal` is no principal.
 *
 * @example
 * ```ts
 * await callHook('mcp:auth', auth)
 * settlePrincipal(auth)
 * ```
 */
export function settlePrincipal(auth: McpAuthContext): void {
  // `user?.id ?? ''` names nobody: as a principal it would put every such caller under one key
  // (one task owner, one session owner). Settled here, once, so every consumer agrees.
  if (auth.principal === '') delete auth.principal
  if (auth.principal !== undefined || auth.authInfo === undefined) return
  const sub = auth.authInfo.extra?.sub
  if (typeof sub === 'string' && sub) {
    auth.principal = sub
    return
  }
  if (!missingSubjectWarned) {
    missingSubjectWarned = true
    console.warn('[nuxt-mcp-elicitation] An mcp:auth hook set authInfo without a subject (authInfo.extra.sub) or auth.principal: sessions and modern requestState are not bound to a user, so one user\'s flow could be continued by another. Set auth.principal to the user id (for a client-credentials token, the client id). (Logged once.)')
  }
}
