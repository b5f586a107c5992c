import type { AuthInfo } from '@modelcontextprotocol/server'
import type { JWTPayload } from 'jose'
import { jsonRpcError } from '../http/errors'
import { BearerError } from './bearer-error'
import { createIntrospector } from './introspect'
import type { OAuthSettings } from './settings'
import { createJwtVerifier } from './verify-jwt'

/** Who the token says is calling: what binds sessions and `requestState`. */
export interface BearerCaller {
  authInfo: AuthInfo
  principal: string
}

/** The app's own check of an opaque token (the `mcp:auth:token` hook): its claims, or nothing. */
export type VerifyOpaqueToken = (token: string) => Promise<JWTPayload | undefined>

/**
 * Checks the Authorization header of one request: the caller, or the response that refuses it.
 * `verifyOpaque` is asked first about a token that is not a JWT; `address` (the client's) counts
 * the unknown opaque tokens a caller sends.
 */
export type BearerCheck = (authorization: string | undefined, verifyOpaque?: VerifyOpaqueToken, address?: string) => Promise<BearerCaller | Response>

/** The `Retry-After` of a caller throttled for unknown opaque tokens: the window it is counted in. */
const CALLER_RETRY_AFTER_S = 10

/** Three base64url segments: a JWS compact serialization. Opaque tokens are anything else. */
function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token)
}

function quoted(text: string): string {
  return `"${text.replace(/["\\]/g, '')}"`
}

function scopesOf(payload: JWTPayload): string[] {
  const scope = payload.scope ?? payload.scp
  if (typeof scope === 'string') return scope.split(' ').filter(Boolean)
  return Array.isArray(scope) ? scope.filter((item): item is string => typeof item === 'string') : []
}

function refuse(settings: OAuthSettings, status: 401 | 403 | 429 | 503, message: string, challenge?: Record<string, string>): Response {
  // The scope too, as MCP 2025-11-25 asks: a client requests what the endpoint needs up front.
  const scope = settings.scopes.length > 0 ? { scope: settings.scopes.join(' ') } : {}
  const params = { ...challenge, ...scope, resource_metadata: settings.metadataUrl }
  const header = `Bearer ${Object.entries(params).map(([name, value]) => `${name}=${quoted(value)}`).join(', ')}`
  if (status === 429) return jsonRpcError(429, -32000, message, { 'retry-after': String(CALLER_RETRY_AFTER_S) })
  return jsonRpcError(status, status === 503 ? -32000 : -32001, message, status === 503 ? { 'retry-after': '5' } : { 'www-authenticate': header })
}

/**
 * The endpoint's OAuth resource-server check (MCP authorization): a missing token gets 401 with
 * the Protected Resource Metadata URL to discover the authorization server from; an invalid one
 * 401 `invalid_token` naming what is wrong; one without a required scope 403
 * `insufficient_scope` naming the scope; an issuer whose keys cannot be fetched 503. The
 * principal is the token's subject, see {@link principalOf}.
 *
 * @example
 * ```ts
 * const check = createBearerCheck(settings)
 * const caller = await check(event.node.req.headers.authorization)
 * if (caller instanceof Response) return caller
 * ```
 */
export function createBearerCheck(settings: OAuthSettings): BearerCheck {
  const verifyJwt = createJwtVerifier(settings)
  const introspect = settings.introspection && createIntrospector({ ...settings, introspection: settings.introspection })
  async function claimsOf(token: string, verifyOpaque: VerifyOpaqueToken | undefined, address: string | undefined): Promise<JWTPayload> {
    if (looksLikeJwt(token)) return verifyJwt(token)
    const own = await verifyOpaque?.(token).catch((error: unknown) => {
      // The app's check failing (its database down) is not the caller's fault: 503, logged.
      console.error('[nuxt-mcp-elicitation] An mcp:auth:token hook threw:', error)
      throw new BearerError('unavailable', 'The access token could not be checked; retry later.')
    })
    if (own) return checkOwnClaims(own, settings)
    if (introspect) return introspect(token, address)
    throw new BearerError('malformed', 'The access token is not a JWT, and this endpoint accepts JWT access tokens from its authorization server only: send the token it issued.')
  }
  return async (authorization, verifyOpaque, address) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')
    if (!authorization) return refuse(settings, 401, `Unauthorized: this MCP endpoint needs an OAuth access token (Authorization: Bearer …); its authorization server is named in ${settings.metadataUrl}.`)
    if (!match) return refuse(settings, 401, 'Unauthorized: the Authorization header must be "Bearer <access token>".', { error: 'invalid_request', error_description: 'Expected a Bearer token' })
    let payload: JWTPayload
    try {
      payload = await claimsOf(match[1]!, verifyOpaque, address)
    }
    catch (error) {
      const failure = error instanceof BearerError ? error : new BearerError('malformed', 'The access token could not be verified.')
      if (failure.kind === 'unavailable') return refuse(settings, 503, `Service unavailable: ${failure.message}`)
      if (failure.kind === 'throttled') return refuse(settings, 429, `Too many requests: ${failure.message}`)
      return refuse(settings, 401, `Unauthorized: ${failure.message}`, { error: 'invalid_token', error_description: failure.message })
    }
    const scopes = scopesOf(payload)
    const missing = settings.scopes.filter(scope => !scopes.includes(scope))
    if (missing.length > 0) {
      return refuse(settings, 403, `Forbidden: the access token lacks the scope ${missing.join(' ')}; request a token with it.`, { error: 'insufficient_scope', scope: settings.scopes.join(' '), error_description: `Missing scope: ${missing.join(' ')}` })
    }
    const clientId = String(payload.client_id ?? payload.azp ?? '')
    const principal = principalOf(payload, clientId, settings.issuers.length > 1)
    if (!principal) {
      return refuse(settings, 401, 'Unauthorized: the access token names neither a subject (sub) nor a client (client_id), so it cannot be bound to a caller.', { error: 'invalid_token', error_description: 'No sub or client_id' })
    }
    return {
      principal,
      authInfo: {
        token: match[1]!,
        clientId,
        scopes,
        ...(typeof payload.exp === 'number' && { expiresAt: payload.exp }),
        resource: new URL(settings.resource),
        extra: { sub: payload.sub, iss: payload.iss },
      },
    }
  }
}

/**
 * Who the token speaks for: its `sub` (RFC 9068: the user, or for a client-credentials grant the
 * client), else its client id (an introspected client-credentials token may have no `sub`), so a
 * client is the same principal whatever the token format. With several issuers each is prefixed
 * with its issuer (`<iss>#<sub>`): two authorization servers may both have an "alice", and a
 * session bound to one must not open to the other's. Empty when the token names neither.
 */
function principalOf(payload: JWTPayload, clientId: string, qualify: boolean): string {
  const subject = typeof payload.sub === 'string' && payload.sub ? payload.sub : clientId
  if (!subject) return ''
  return qualify && typeof payload.iss === 'string' ? `${payload.iss}#${subject}` : subject
}

/**
 * The app's verdict still has to be current and, when it names an audience, for this endpoint;
 * where the endpoint sets its own `auth.audiences`, it must name one of them (a key made for one
 * endpoint must not open another whose scopes it happens to carry).
 */
function checkOwnClaims(claims: JWTPayload, settings: OAuthSettings): JWTPayload {
  if (typeof claims.exp === 'number' && claims.exp + settings.clockToleranceSeconds < Math.floor(Date.now() / 1000)) {
    throw new BearerError('expired', 'The access token has expired: get a new one.')
  }
  const audiences = claims.aud === undefined ? undefined : typeof claims.aud === 'string' ? [claims.aud] : claims.aud
  if (!audiences && settings.audiencesSet) {
    throw new BearerError('audience', 'The access token names no audience, and this endpoint accepts tokens for its own audiences only: vouch for it with one of them (claims.aud).')
  }
  if (audiences && !audiences.some(audience => settings.audiences.includes(audience))) {
    throw new BearerError('audience', `The access token is for another resource: request one for ${settings.resource}.`)
  }
  return claims
}
