import type { JWTPayload } from 'jose'
import { isRecord } from '../../common/is-record'
import { BearerError } from './bearer-error'
import { refuseBoundToken } from './token-binding'
import { cachePerIssuer, fetchIssuerMetadata, usableEndpoint } from './issuer-metadata'
import type { IntrospectionSettings, OAuthSettings } from './settings'

/** RFC 6749 §2.3.1: the client id and secret are form-encoded before Basic encoding. */
function basicCredentials({ clientId, clientSecret }: IntrospectionSettings): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+')
  return `Basic ${btoa(`${encode(clientId)}:${encode(clientSecret)}`)}`
}

async function endpointOf(settings: IntrospectionSettings): Promise<string> {
  // The client secret goes there: never in cleartext to another host, configured or not.
  if (settings.endpoint) return usableEndpoint(settings.endpoint, settings.issuer, 'introspection endpoint')
  const { introspection_endpoint } = await fetchIssuerMetadata(settings.issuer)
  if (!introspection_endpoint) throw new BearerError('unavailable', `The authorization server ${settings.issuer} publishes no introspection_endpoint; set NUXT_MCP_AUTH_INTROSPECTION_ENDPOINT.`)
  return usableEndpoint(introspection_endpoint, settings.issuer, 'introspection endpoint')
}

let misconfigurationLogged = false

/** How long an inactive answer is remembered: the same unknown token again costs no round trip. */
const INACTIVE_REMEMBERED_MS = 30_000
/** Most inactive answers remembered (the oldest go first). */
const MAX_REMEMBERED = 10_000
/** Tokens the issuer did not know that one caller may send per window before it gets 429. */
const INACTIVE_PER_CALLER = 20
const CALLER_WINDOW_MS = 10_000
/** Most callers counted at once (the oldest windows go first). */
const MAX_CALLERS = 10_000

async function digestOf(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)))
  return Array.from(digest, byte => byte.toString(16).padStart(2, '0')).join('')
}

/** A map that drops its oldest entry past `max` (Maps keep insertion order). */
function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key)
  map.set(key, value)
  if (map.size > max) map.delete(map.keys().next().value!)
}

/**
 * Checks opaque access tokens with the authorization server's introspection endpoint (RFC 7662),
 * authenticating as the resource server's own client. Resolves with the token's claims when it is
 * active, issued by an accepted issuer and for one of the accepted audiences, and a plain bearer
 * token (`token_type` `Bearer` when given, no `cnf` key binding); rejects with a
 * {@link BearerError} otherwise. An active answer is never cached: a revoked token stops working
 * at once, at the price of one round trip to the issuer per request. An inactive one is
 * remembered for 30 s, and a caller (`caller`: its address) whose tokens the issuer did not know
 * 20 times in 10 s gets 429 until the window passes, so an anonymous caller cannot make this
 * server flood the issuer (and be throttled by it, for everyone).
 *
 * @example
 * ```ts
 * const introspect = createIntrospector(settings)
 * const claims = await introspect(token)
 * ```
 */
export function createIntrospector(settings: OAuthSettings & { introspection: IntrospectionSettings }): (token: string, caller?: string) => Promise<JWTPayload> {
  const endpoint = cachePerIssuer(() => endpointOf(settings.introspection))
  const inactive = new Map<string, number>()
  const failures = new Map<string, { since: number, count: number }>()
  const refuseInactive = () => new BearerError('inactive', 'The access token is not active (expired, revoked or unknown to the authorization server): get a new one.')
  return async (token, caller = '') => {
    const now = Date.now()
    const digest = await digestOf(token)
    if ((inactive.get(digest) ?? 0) > now) throw refuseInactive()
    const window = failures.get(caller)
    if (window && now - window.since < CALLER_WINDOW_MS && window.count >= INACTIVE_PER_CALLER) {
      throw new BearerError('throttled', `Too many access tokens the authorization server does not know came from this caller: retry in ${Math.ceil((window.since + CALLER_WINDOW_MS - now) / 1000)} s with a valid one.`)
    }
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
      setBounded(inactive, digest, Date.now() + INACTIVE_REMEMBERED_MS, MAX_REMEMBERED)
      const counted = failures.get(caller)
      const next = counted && Date.now() - counted.since < CALLER_WINDOW_MS ? { since: counted.since, count: counted.count + 1 } : { since: Date.now(), count: 1 }
      setBounded(failures, caller, next, MAX_CALLERS)
      throw refuseInactive()
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
  refuseBoundToken(claims, claims.token_type)
  return claims
}
