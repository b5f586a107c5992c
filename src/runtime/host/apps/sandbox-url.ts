import { getRequestURL } from 'h3'
import type { H3Event } from 'h3'

/** Where the sandbox proxy page is served, on whichever origin the host gives it. */
export const SANDBOX_PATH = '/_mcp/apps/sandbox'

const LOOPBACK_SWAP: Record<string, string> = { 'localhost': '127.0.0.1', '127.0.0.1': 'localhost' }

/**
 * The sandbox proxy page for the views a chat shows: on `sandboxOrigin` (a full origin, or a
 * host name served by this same server on the request's port), or in `nuxi dev` on the other
 * loopback name (`localhost` ↔ `127.0.0.1`: another origin, the same server). `undefined` when
 * there is none: a view is never run on the app's own origin. The page's origin goes along, the
 * only one the sandbox listens to.
 *
 * @example
 * ```ts
 * sandboxUrlOf(event, 'sandbox.example.com', false) // 'https://sandbox.example.com/_mcp/apps/sandbox?host=https%3A%2F%2Fchat.example.com'
 * ```
 */
export function sandboxUrlOf(event: H3Event, sandboxOrigin: string, dev: boolean): string | undefined {
  const page = getRequestURL(event)
  let origin: string | undefined
  if (sandboxOrigin.includes('://')) origin = new URL(sandboxOrigin).origin
  else if (sandboxOrigin) origin = `${page.protocol}//${sandboxOrigin}${page.port ? `:${page.port}` : ''}`
  else if (dev && LOOPBACK_SWAP[page.hostname]) origin = `${page.protocol}//${LOOPBACK_SWAP[page.hostname]}${page.port ? `:${page.port}` : ''}`
  if (!origin || origin === page.origin) return undefined
  return `${origin}${SANDBOX_PATH}?host=${encodeURIComponent(page.origin)}`
}
