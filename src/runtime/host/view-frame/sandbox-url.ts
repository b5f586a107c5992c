import { getRequestURL } from 'h3'
import type { H3Event } from 'h3'
import { sandboxOriginFor, sandboxUrlFor } from '../../chat/elicitation/host-urls'

/**
 * The sandbox proxy page for the views a chat shows ({@link sandboxUrlFor}, for the page this
 * request comes from): on `sandboxOrigin` (a full origin, or a host name served by this same
 * server on the request's port), or in `nuxi dev` on the other loopback name (`localhost` ↔
 * `127.0.0.1`: another origin, the same server). `undefined` when there is none: a view is never
 * run on the app's own origin. The page's origin goes along, the only one the sandbox listens to.
 *
 * @example
 * ```ts
 * sandboxUrlOf(event, 'sandbox.example.com', false) // 'https://sandbox.example.com/_mcp/apps/sandbox?host=https%3A%2F%2Fchat.example.com'
 * ```
 */
export function sandboxUrlOf(event: H3Event, sandboxOrigin: string, dev: boolean): string | undefined {
  return sandboxUrlFor(getRequestURL(event), sandboxOrigin, dev)
}

/**
 * Why this request for the sandbox page is refused, or `undefined` when it came to the sandbox's
 * own host: the one {@link sandboxUrlOf} names for the chat page in its `?host=` (the request's
 * Host header against that origin's host). On any other host, the app's own origin included, the
 * page would run a view's HTML under that origin's name for whoever frames it.
 * So it needs the browser's `Host`: behind a proxy that rewrites it, every sandbox request is
 * refused (safe, but no view shows); docs/host.md and docs/deploy say to forward it.
 *
 * @example
 * ```ts
 * const refusal = refuseSandboxRequest(event, 'localhost', false)
 * if (refusal) throw createError({ statusCode: 404, message: refusal })
 * ```
 */
export function refuseSandboxRequest(event: H3Event, sandboxOrigin: string, dev: boolean): string | undefined {
  const request = getRequestURL(event)
  const claimed = request.searchParams.get('host')
  let page: URL | undefined
  try {
    page = claimed ? new URL(claimed) : undefined
  }
  catch {
    page = undefined
  }
  if (!page) return `The MCP App sandbox page is framed by a chat page, whose origin its URL names in ?host=; got ${claimed === null ? 'none' : `"${claimed}"`}.`
  let expected: string | undefined
  try {
    expected = sandboxOriginFor(page, sandboxOrigin, dev)
  }
  catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
  if (!expected) return `This host has no sandbox origin for views of ${page.origin}: set mcp.host.apps.sandboxOrigin (NUXT_MCP_HOST_APPS_SANDBOX_ORIGIN) to an origin other than the app's.`
  if (new URL(expected).host !== request.host) return `The MCP App sandbox page is served only on the sandbox's host, ${new URL(expected).host} (mcp.host.apps.sandboxOrigin), not on ${request.host}.`
  return undefined
}
