import type { H3Event } from 'h3'
import { jsonRpcError } from '../http/errors'

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1'])

function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname
  }
  catch {
    return undefined
  }
}

/**
 * Whether the request's Host header names this machine (`localhost`, `127.0.0.1`, `[::1]`) or an
 * allowed host. Behind `nuxi dev` the socket is the dev server's internal one, so the Host header
 * is what tells a page opened on this machine from one opened over the network.
 *
 * @example
 * ```ts
 * if (!isHostForThisMachine(event, allowedHosts)) return forbidden()
 * ```
 */
export function isHostForThisMachine(event: H3Event, allowedHosts: string[]): boolean {
  const host = event.node.req.headers.host ?? ''
  const hostname = hostnameOf(host)
  return hostname !== undefined && (LOOPBACK_HOSTS.has(hostname) || allowedHosts.includes(hostname) || allowedHosts.includes(host))
}

/** The allow-lists the endpoint enforces (from `mcp.allowedHosts`, `mcp.allowedOrigins`, `mcp.publicUrl`). */
export interface OriginPolicy {
  /** Host names or `host:port`; `'*'` accepts any Host (the check is off). */
  allowedHosts: string[]
  allowedOrigins: string[]
  /** The host (`name` or `name:port`) of `mcp.publicUrl`, when it is set. */
  publicHost?: string
}

/**
 * The host of `publicUrl` (`NUXT_MCP_PUBLIC_URL`), or `undefined` when it is empty. Throws with
 * the variable's name and the fix when it is not an absolute http(s) URL.
 *
 * @example
 * ```ts
 * publicHostOf('https://mcp.example.com/') // 'mcp.example.com'
 * ```
 */
export function publicHostOf(publicUrl: string): string | undefined {
  if (!publicUrl) return undefined
  let parsed: URL
  try {
    parsed = new URL(publicUrl)
  }
  catch {
    throw new Error(`[nuxt-mcp-elicitation] NUXT_MCP_PUBLIC_URL (mcp.publicUrl) is "${publicUrl.slice(0, 200)}", which is not a URL: set the address clients use, e.g. https://mcp.example.com.`)
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new Error(`[nuxt-mcp-elicitation] NUXT_MCP_PUBLIC_URL (mcp.publicUrl) must be an http(s) URL, not "${parsed.protocol}": e.g. https://mcp.example.com.`)
  }
  return parsed.host
}

/** An IP address literal: no DNS name, so nothing an attacker can re-point (WHATWG URL normalises IPv4 forms). */
function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith('[') || /^\d{1,3}(?:\.\d{1,3}){3}$/.test(hostname)
}

/**
 * The DNS-rebinding rule: loopback names (`localhost`, `*.localhost`) and IP literals pass;
 * so do the hosts in `allowedHosts` and the public URL's host; any other DNS name does not.
 * Decided from the Host header alone: the listening address cannot tell a public deployment
 * from a container or LAN host that a rebound page reaches.
 *
 * @example
 * ```ts
 * isAllowedHost('evil.example:3000', { allowedHosts: [], allowedOrigins: [] }) // false
 * isAllowedHost('127.0.0.1:3000', { allowedHosts: [], allowedOrigins: [] }) // true
 * ```
 */
export function isAllowedHost(host: string, policy: OriginPolicy): boolean {
  const hostname = hostnameOf(host)
  if (hostname === undefined) return false
  if (policy.allowedHosts.includes('*')) return true
  if (LOOPBACK_HOSTS.has(hostname) || hostname.endsWith('.localhost') || isIpLiteral(hostname)) return true
  if (policy.allowedHosts.includes(hostname) || policy.allowedHosts.includes(host)) return true
  return policy.publicHost !== undefined && (policy.publicHost === host || hostnameOf(policy.publicHost) === hostname)
}

let refusedHostLogged = false

function hostRefusal(host: string): Response {
  const shown = host.slice(0, 200)
  const fix = `If clients reach this server under that name, set NUXT_MCP_PUBLIC_URL (mcp.publicUrl) to its address, e.g. https://${hostnameOf(host) ?? 'mcp.example.com'}, or list the name in mcp.allowedHosts / NUXT_MCP_ALLOWED_HOSTS (comma-separated); allowedHosts: ['*'] turns this check off.`
  if (!refusedHostLogged) {
    refusedHostLogged = true
    console.warn(`[nuxt-mcp-elicitation] Refused an MCP request for Host "${shown}" (DNS-rebinding protection). ${fix} (Logged once.)`)
  }
  return jsonRpcError(403, -32000, `Forbidden: Host "${shown}" is not allowed on this MCP endpoint (DNS-rebinding protection). ${fix}`)
}

/**
 * DNS-rebinding and cross-site protection, on by default:
 * - the Host must pass {@link isAllowedHost} (loopback names, IP literals, `allowedHosts`, the
 *   public URL's host);
 * - a browser `Origin` must be the endpoint's own origin or an allowed one.
 * Returns the 403 response to send, or `undefined` to go on.
 *
 * @example
 * ```ts
 * const refusal = checkOriginPolicy(event, { allowedHosts: [], allowedOrigins: [] })
 * if (refusal) return refusal
 * ```
 */
export function checkOriginPolicy(event: H3Event, policy: OriginPolicy): Response | undefined {
  const host = event.node.req.headers.host ?? ''
  if (!isAllowedHost(host, policy)) return hostRefusal(host)
  const origin = event.node.req.headers.origin
  if (origin && origin !== 'null') {
    const sameOrigin = origin === `http://${host}` || origin === `https://${host}`
    if (!sameOrigin && !policy.allowedOrigins.includes(origin)) {
      return jsonRpcError(403, -32000, `Forbidden: Origin "${origin.slice(0, 200)}" is not allowed on this MCP endpoint. Add it to \`mcp.allowedOrigins\` in nuxt.config or to NUXT_MCP_ALLOWED_ORIGINS (comma-separated).`)
    }
  }
  else if (origin === 'null' && !policy.allowedOrigins.includes('null')) {
    return jsonRpcError(403, -32000, 'Forbidden: Origin "null" (a sandboxed or file:// page) is not allowed on this MCP endpoint. Serve the page from an origin listed in `mcp.allowedOrigins`.')
  }
  return undefined
}
