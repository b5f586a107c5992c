import { isRecord } from '../../common/is-record'
import { BearerError } from './bearer-error'

/** The parts of an authorization server's metadata (RFC 8414 / OpenID discovery) we use. */
export interface IssuerMetadata {
  issuer: string
  jwks_uri?: string
  introspection_endpoint?: string
}

/** Issuer identifiers compare as the tokens' `iss` does here: a trailing slash aside. */
function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/$/, '') === b.replace(/\/$/, '')
}

let mismatchLogged = false

/**
 * Fetches an authorization server's metadata: OpenID discovery first (Auth0, Keycloak, Clerk
 * publish it), then RFC 8414. Rejects with an `unavailable` {@link BearerError} (503) when neither
 * answers within 5 s, so a request never hangs on a dead issuer, and when the document names
 * another issuer than the one asked (RFC 8414 §3.3: its keys and endpoints are not that issuer's
 * to vouch for).
 *
 * @example
 * ```ts
 * const { jwks_uri } = await fetchIssuerMetadata('https://auth.example.com')
 * ```
 */
export async function fetchIssuerMetadata(issuer: string): Promise<IssuerMetadata> {
  const base = issuer.replace(/\/$/, '')
  for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
    const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined)
    if (!response?.ok) continue
    const metadata: unknown = await response.json().catch(() => undefined)
    if (!isRecord(metadata)) continue
    if (typeof metadata.issuer !== 'string' || !sameIssuer(metadata.issuer, issuer)) {
      if (!mismatchLogged) {
        mismatchLogged = true
        console.error(`[nuxt-mcp-elicitation] The metadata at ${base}${path} names the issuer ${JSON.stringify(metadata.issuer)}, not ${issuer}: its keys are not used. List the issuer exactly as its metadata names it in NUXT_MCP_AUTH_ISSUERS. (Logged once.)`)
      }
      throw new BearerError('unavailable', `The authorization server ${issuer} could not be used: its metadata names another issuer.`)
    }
    return {
      issuer,
      ...(typeof metadata.jwks_uri === 'string' && { jwks_uri: metadata.jwks_uri }),
      ...(typeof metadata.introspection_endpoint === 'string' && { introspection_endpoint: metadata.introspection_endpoint }),
    }
  }
  throw new BearerError('unavailable', `The authorization server ${issuer} could not be reached for its metadata; retry later.`)
}

/**
 * Caches a per-issuer lookup; a failed one is forgotten, so the next request tries again.
 *
 * @example
 * ```ts
 * const keysOf = cachePerIssuer(issuer => fetchIssuerMetadata(issuer))
 * ```
 */
export function cachePerIssuer<T>(load: (issuer: string) => Promise<T>): (issuer: string) => Promise<T> {
  const found = new Map<string, Promise<T>>()
  return (issuer) => {
    let entry = found.get(issuer)
    if (!entry) {
      entry = load(issuer)
      found.set(issuer, entry)
      entry.catch(() => found.delete(issuer))
    }
    return entry
  }
}

const refusedLogged = new Set<string>()

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin
  }
  catch {
    return undefined
  }
}

/** `localhost`, `*.localhost`, 127.0.0.0/8 and `::1`: traffic that never leaves the machine. */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(hostname) || hostname === '[::1]'
}

/**
 * `url` when an issuer's key set or introspection endpoint may be used at it: over `https`, on
 * loopback, or on the issuer's own origin (an `http` issuer was chosen so by whoever configured
 * it, e.g. a container network). Anything else would send the introspection secret, or fetch
 * the keys that decide who is let in, in cleartext to another host: a `BearerError` (503) and a
 * log line naming the URL instead.
 *
 * @example
 * ```ts
 * const jwks = new URL(usableEndpoint(metadata.jwks_uri, issuer, 'jwks_uri'))
 * ```
 */
export function usableEndpoint(url: string, issuer: string, what: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  }
  catch {
    throw new BearerError('unavailable', `The authorization server ${issuer} names a ${what} that is not a URL.`)
  }
  if (parsed.protocol === 'https:' || (parsed.protocol === 'http:' && (isLoopback(parsed.hostname) || originOf(issuer) === parsed.origin))) return url
  if (!refusedLogged.has(url)) {
    refusedLogged.add(url)
    console.error(`[nuxt-mcp-elicitation] The ${what} ${url} of ${issuer} is not used: it is neither https, nor on loopback, nor on the issuer's own origin. (Logged once.)`)
  }
  throw new BearerError('unavailable', `The authorization server ${issuer} could not be used: its ${what} is not served over https.`)
}
