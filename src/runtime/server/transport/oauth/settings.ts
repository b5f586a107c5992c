import { publicBaseOf, toList } from '../../common/config'
import type { McpServerConfig } from '../../common/config'

/** How opaque tokens are checked by introspection (RFC 7662): as this client of `issuer`. */
export interface IntrospectionSettings {
  issuer: string
  /** The introspection endpoint; empty: the issuer's `introspection_endpoint` metadata. */
  endpoint: string
  clientId: string
  clientSecret: string
}

/** The OAuth resource-server settings in force, resolved from `mcp.auth` and the public URL. */
export interface OAuthSettings {
  /** Authorization servers whose tokens are accepted (their issuer identifiers). */
  issuers: string[]
  /** This endpoint's resource identifier (RFC 8707): `mcp.auth.resource`, else public URL + route. */
  resource: string
  /** `aud` values accepted; by default the resource identifier alone. */
  audiences: string[]
  /** Whether the endpoint set its own `auth.audiences`: then an app-vouched token must name one. */
  audiencesSet: boolean
  /** Scopes every request's token must carry. */
  scopes: string[]
  clockToleranceSeconds: number
  /** How long an issuer's keys are used before they are fetched again. */
  jwksMaxAgeMs: number
  /** Where the Protected Resource Metadata document is served (RFC 9728). */
  metadataUrl: string
  /** Set when opaque tokens are introspected (`mcp.auth.introspection.clientId` is set). */
  introspection?: IntrospectionSettings
}

/**
 * The OAuth settings, or `undefined` when `mcp.auth.issuers` is empty (OAuth off). Throws with the
 * option to set when the resource identifier cannot be known: it is never derived from the
 * request's Host header, which a client controls.
 *
 * The resource is the public URL, its path kept (a prefix a proxy adds: `https://host/app1/`),
 * then Nuxt's `app.baseURL` (`baseURL`), then the route: where clients reach the endpoint, so
 * two apps on one origin never share a resource. Its metadata is served by this app under the
 * same prefixes, and named in every 401 (`resource_metadata`); with the default prefixes that is
 * RFC 9728's well-known URL.
 *
 * @example
 * ```ts
 * const oauth = resolveOAuthSettings(config, '/mcp', useRuntimeConfig().app.baseURL)
 * ```
 */
export function resolveOAuthSettings(config: Pick<McpServerConfig, 'auth' | 'publicUrl'>, route: string, baseURL = '/'): OAuthSettings | undefined {
  const issuers = toList(config.auth.issuers)
  if (issuers.length === 0) return undefined
  const served = publicBaseOf(config.publicUrl, baseURL)
  const base = config.auth.resource || (served ? `${served}${route}` : '')
  if (!base) {
    throw new Error('[nuxt-mcp-elicitation] mcp.auth is on but the resource identifier is unknown: set NUXT_MCP_PUBLIC_URL (the address clients use; the resource is it plus the route) or NUXT_MCP_AUTH_RESOURCE.')
  }
  const resource = new URL(base).href
  const resourceUrl = new URL(resource)
  // Where this app serves the document (its handler sits under app.baseURL, behind any proxy
  // prefix); a resource set by hand keeps RFC 9728's well-known URL at its origin.
  const metadataUrl = !config.auth.resource && served
    ? `${served}/.well-known/oauth-protected-resource${route}`
    : new URL(`/.well-known/oauth-protected-resource${resourceUrl.pathname === '/' ? '' : resourceUrl.pathname}`, resourceUrl.origin).href
  const audiences = toList(config.auth.audiences)
  const { clientId, clientSecret, endpoint, issuer } = config.auth.introspection
  if (clientId && !clientSecret) {
    throw new Error('[nuxt-mcp-elicitation] mcp.auth.introspection.clientId is set without its secret: set NUXT_MCP_AUTH_INTROSPECTION_CLIENT_SECRET.')
  }
  return {
    issuers,
    resource,
    audiences: audiences.length > 0 ? audiences : [resource],
    audiencesSet: audiences.length > 0,
    scopes: toList(config.auth.scopes),
    clockToleranceSeconds: config.auth.clockToleranceSeconds,
    // (An older config without the key: the default, never "forever".)
    jwksMaxAgeMs: (Number(config.auth.jwksMaxAgeSeconds) > 0 ? Number(config.auth.jwksMaxAgeSeconds) : 3600) * 1000,
    metadataUrl,
    ...(clientId && { introspection: { issuer: issuer || issuers[0]!, endpoint, clientId, clientSecret } }),
  }
}

/**
 * The Protected Resource Metadata document (RFC 9728) of the endpoint.
 *
 * @example
 * ```ts
 * return protectedResourceMetadata(oauth)
 * ```
 */
export function protectedResourceMetadata(settings: OAuthSettings): Record<string, unknown> {
  return {
    resource: settings.resource,
    authorization_servers: settings.issuers,
    ...(settings.scopes.length > 0 && { scopes_supported: settings.scopes }),
    bearer_methods_supported: ['header'],
  }
}
