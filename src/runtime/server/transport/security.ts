import type { H3Event } from 'h3'
import { jsonRpcError } from './http-errors'

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1'])

function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.')
}

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

/** The allow-lists the endpoint enforces (from `mcp.allowedHosts` / `mcp.allowedOrigins`). */
export interface OriginPolicy {
  allowedHosts: string[]
  allowedOrigins: string[]
}

/**
 * DNS-rebinding and cross-site protection, on by default:
 * - a request that arrived on a loopback interface must name a loopback Host (or an allowed one):
 *   a rebound evil.example → 127.0.0.1 still says `Host: evil.example`;
 * - on other interfaces the Host is checked only when `allowedHosts` is set;
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
  const hostname = hostnameOf(host)
  const allowedHost = hostname !== undefined && (policy.allowedHosts.includes(hostname) || policy.allowedHosts.includes(host))
  const onLoopback = isLoopbackAddress(event.node.req.socket?.localAddress)
  if ((onLoopback || policy.allowedHosts.length > 0) && !allowedHost && !(onLoopback && hostname !== undefined && LOOPBACK_HOSTS.has(hostname))) {
    return jsonRpcError(403, -32000, `Forbidden: Host "${host.slice(0, 200)}" is not allowed on this MCP endpoint (DNS-rebinding protection). Add the host name to \`mcp.allowedHosts\` in nuxt.config or to NUXT_MCP_ALLOWED_HOSTS (comma-separated).`)
  }
  const origin = event.node.req.headers.origin
  if (origin && origin !== 'null') {
    const sameOrigin = hostnameOf(host) !== undefined && (origin === `http://${host}` || origin === `https://${host}`)
    if (!sameOrigin && !policy.allowedOrigins.includes(origin)) {
      return jsonRpcError(403, -32000, `Forbidden: Origin "${origin.slice(0, 200)}" is not allowed on this MCP endpoint. Add it to \`mcp.allowedOrigins\` in nuxt.config or to NUXT_MCP_ALLOWED_ORIGINS (comma-separated).`)
    }
  }
  else if (origin === 'null' && !policy.allowedOrigins.includes('null')) {
    return jsonRpcError(403, -32000, 'Forbidden: Origin "null" (a sandboxed or file:// page) is not allowed on this MCP endpoint. Serve the page from an origin listed in `mcp.allowedOrigins`.')
  }
  return undefined
}
