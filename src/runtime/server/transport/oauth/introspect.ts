import type { JWTPayload } from 'jose'
import { isRecord } from '../../common/is-record'
import { BearerError } from './bearer-error'
import { cachePerIssuer, fetchIssuerMetadata } from './issuer-metadata'
import type { IntrospectionSettings, OAuthSettings } from './settings'

/** RFC 6749 §2.3.1: the client id and secret are form-encoded before Basic encoding. */
function basicCredentials({ clientId, clientSecret }: IntrospectionSettings): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+')
  return `Basic ${btoa(`${encode(clientId)}:${encode(clientSecret)}`)}`
}

async function endpointOf(settings: IntrospectionSettings): Promise<string> {
  if (settings.endpoint) return settings.endpoint
  const { introspection_endpoint } = await fetchIssuerMetadata(settings.issuer)
  if (!introspection_endpoint) throw new BearerError('unavailable', `The authorization server ${settings.issuer} publishes no introspection_endpoint; set NUXT_MCP_AUTH_INTROSPECTION_ENDPOINT.`)
  return introspection_endpoint
}

let misconfigurationLogged = false

/**
 * Checks opaque access tokens with the authorization server's introspection endpoint (RFC 7662),
 * authenticating as the resource server's own client. Resolves with the token's claims when it is
 * active, issued by an accepted issuer and for one of the accepted audiences; rejects with a
 * {@link BearerError} otherwise. Nothing is cached: a revoked token stops working at once, at the
 * price of one round trip to the issuer per request.
 *
 * @example
 * ```ts
 * const introspect = createIntrospector(settings)
 * const claims = await introspect(token)
 * ```
 */
export function createIntrospector(settings: OAuthSettings & { introspection: IntrospectionSettings }): (token: string) => Promise<JWTPayload> {
  const endpoint = cachePerIssuer(() => endpointOf(settings.introspection))
  return async (token) => {
    const url = await endpoint(settings.introspection.issuer)
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept': 'application/json', 'authorization': basicCredentials(settings.introspection) },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
      signal: AbortSignal.timeout(5000),
    }).catch(() => undefined)
    if (!response?.ok) {
      // Our own client being refused is a deployment mistake, not the caller's: say so in the log.
      if (response && (response.status === 400 || response.status === 401) && !misconfigurationLogged) {
        misconfigurationLogged = true
        console.error(`[nuxt-mcp-elicitation] Token introspection at ${url} answered ${response.status}: check NUXT_MCP_AUTH_INTROSPECTION_CLIENT_ID and NUXT_MCP_AUTH_INTROSPECTION_CLIENT_SECRET. (Logged once.)`)
      }
      throw new BearerError('unavailable', 'The access token could not be checked with the authorization server; retry later.')
    }
    const claims: unknown = await response.json().catch(() => undefined)
    if (!isRecord(claims) || claims.active !== true) {
      throw new BearerError('inactive', 'The access token is not active (expired, revoked or unknown to the authorization server): get a new one.')
    }
    // `iss` is optional in an introspection answer; the issuer asked is the one that knows it.
    return checkIntrospected({ ...claims, iss: typeof claims.iss === 'string' ? claims.iss : settings.introspection.issuer }, settings)
  }
}

function checkIntrospected(claims: JWTPayload, settings: OAuthSettings): JWTPayload {
  const now = Math.floor(Date.now() / 1000)
  if (typeof claims.exp === 'number' && claims.exp + settings.clockToleranceSeconds < now) {
    throw new BearerError('expired', 'The access token has expired: get a new one.')
  }
  if (claims.iss !== undefined && !settings.issuers.some(issuer => issuer.replace(/\/$/, '') === String(claims.iss).replace(/\/$/, ''))) {
    throw new BearerError('issuer', 'The access token comes from an authorization server this endpoint does not accept.')
  }
  // An introspected token must name its audience: without it a token the same authorization
  // server issued for another API would open this endpoint too.
  const audiences = typeof claims.aud === 'string' ? [claims.aud] : (claims.aud ?? [])
  if (!audiences.some(audience => settings.audiences.includes(audience))) {
    throw new BearerError('audience', `The access token is for another resource: request one for ${settings.resource}.`)
  }
  return claims
}
