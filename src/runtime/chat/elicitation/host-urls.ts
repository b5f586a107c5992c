/**
 * The URLs a chat's message data hands the page (`sandboxUrl`, `callUrl`, `respondUrl`), checked
 * against what this host serves before the page frames or POSTs anything. Message data is not the
 * host's word: an app that stores or shares conversations re-renders parts anyone could have
 * written (the AI SDK posts the whole message list from the browser). Pure functions, shared by
 * the host's Nitro side (which names the sandbox) and its Vue side (which checks it).
 */

/** Where the sandbox proxy page is served, on whichever origin the host gives it. */
const SANDBOX_PATH = '/_mcp/apps/sandbox'

const LOOPBACK_SWAP: Record<string, string> = { 'localhost': '127.0.0.1', '127.0.0.1': 'localhost' }

/**
 * The parts of a page's URL the sandbox's is made from (a `URL`, or the browser's `location`).
 *
 * @example
 * ```ts
 * const page: McpPageUrl = new URL('https://chat.example.com/chat') // or `location`, or useRequestURL()
 * ```
 */
export interface McpPageUrl {
  protocol: string
  hostname: string
  port: string
  origin: string
}

/**
 * The origin of the views' sandbox for a page at `page`: `sandboxOrigin` (a full origin, or a host
 * name served by this same server on the page's port), or in `nuxi dev` without one the other
 * loopback name (`localhost` ↔ `127.0.0.1`: another origin, the same server). `undefined` when
 * there is none, or when it would be the page's own: a view never runs on the app's origin. A
 * `sandboxOrigin` that is neither throws a `TypeError` naming the option and what it takes.
 *
 * @example
 * ```ts
 * sandboxOriginFor(new URL('http://127.0.0.1:3000/chat'), 'localhost', false) // 'http://localhost:3000'
 * ```
 */
export function sandboxOriginFor(page: McpPageUrl, sandboxOrigin: string, dev: boolean): string | undefined {
  const port = page.port ? `:${page.port}` : ''
  let origin: string | undefined
  if (sandboxOrigin) origin = originOf(sandboxOrigin.includes('://') ? sandboxOrigin : `${page.protocol}//${sandboxOrigin}${port}`, sandboxOrigin)
  else if (dev && LOOPBACK_SWAP[page.hostname]) origin = `${page.protocol}//${LOOPBACK_SWAP[page.hostname]}${port}`
  return origin && origin !== page.origin ? origin : undefined
}

/** The origin of `url`, made from the option `option`; a clear error naming it when it is none. */
function originOf(url: string, option: string): string {
  let parsed: URL | undefined
  try {
    parsed = new URL(url)
  }
  catch {
    parsed = undefined
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.pathname !== '/') {
    throw new TypeError(`mcp.host.apps.sandboxOrigin (NUXT_MCP_HOST_APPS_SANDBOX_ORIGIN) is "${option}": give a full origin ("https://sandbox.example.com") or a host name served by this server ("sandbox.example.com").`)
  }
  return parsed.origin
}

/**
 * The sandbox proxy page for the views of a page at `page` ({@link sandboxOriginFor}), with the
 * page's origin, the only one the sandbox listens to; `undefined` when there is no sandbox.
 *
 * @example
 * ```ts
 * sandboxUrlFor(new URL('https://chat.example.com/chat'), 'sandbox.example.com', false)
 * // 'https://sandbox.example.com/_mcp/apps/sandbox?host=https%3A%2F%2Fchat.example.com'
 * ```
 */
export function sandboxUrlFor(page: McpPageUrl, sandboxOrigin: string, dev: boolean): string | undefined {
  const origin = sandboxOriginFor(page, sandboxOrigin, dev)
  return origin ? `${origin}${SANDBOX_PATH}?host=${encodeURIComponent(page.origin)}` : undefined
}

/**
 * What the page knows of its host: `runtimeConfig.public.mcpHost`, which the host's Nitro plugin
 * copies from the server's runtime config before each page renders (so that
 * `NUXT_MCP_HOST_APPS_SANDBOX_ORIGIN` reaches the page too).
 *
 * @example
 * ```ts
 * const config: McpHostPageConfig = { appsSandboxOrigin: 'sandbox.example.com', respondRoute: '/api/_mcp/elicitations', appsRoute: '/api/_mcp/apps' }
 * ```
 */
export interface McpHostPageConfig {
  /** `mcp.host.apps.sandboxOrigin`: a full origin, a host name, or empty. */
  appsSandboxOrigin: string
  /** The respond endpoint's prefix under the app's `baseURL` (`/api/_mcp/elicitations`). */
  respondRoute: string
  /** The views' call endpoint's prefix under the app's `baseURL` (`/api/_mcp/apps`). */
  appsRoute: string
}

/**
 * Reads {@link McpHostPageConfig} from `runtimeConfig.public.mcpHost`; `undefined` when it is not
 * there whole (a page the host's plugin did not render).
 *
 * @example
 * ```ts
 * const config = readHostPageConfig(useRuntimeConfig().public.mcpHost)
 * ```
 */
export function readHostPageConfig(value: unknown): McpHostPageConfig | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const config: Partial<Record<keyof McpHostPageConfig, unknown>> = value
  const { appsSandboxOrigin, respondRoute, appsRoute } = config
  if (typeof appsSandboxOrigin !== 'string' || typeof respondRoute !== 'string' || typeof appsRoute !== 'string') return undefined
  return { appsSandboxOrigin, respondRoute, appsRoute }
}

/**
 * The message data fields that name a URL the page frames or POSTs to.
 *
 * @example
 * ```ts
 * const field: McpHostUrlField = 'respondUrl'
 * checkHostUrl(field, item.respondUrl, context)
 * ```
 */
export type McpHostUrlField = 'sandboxUrl' | 'callUrl' | 'respondUrl'

/**
 * Where {@link checkHostUrl} looks: the page, its host's config, and whether it runs in `nuxi dev`.
 *
 * @example
 * ```ts
 * const context: McpHostUrlContext = { page: location, config: readHostPageConfig(useRuntimeConfig().public.mcpHost), dev: import.meta.dev }
 * ```
 */
export interface McpHostUrlContext {
  page: McpPageUrl
  config: McpHostPageConfig | undefined
  dev: boolean
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** One path segment as `encodeURIComponent` writes an id (no `/`, `?`, `#`). */
const SEGMENT = '[\\w.~!*\'()%-]+'

/**
 * Checks a URL from message data against what this host serves, before the page frames it or
 * POSTs to it: `sandboxUrl` must be exactly the sandbox page this host names for this page;
 * `callUrl` a path `<appsRoute>/<id>/call` and `respondUrl` a path `<respondRoute>/<id>` of the
 * page's own origin, as the host writes them (no other origin, no query, nothing a URL parser
 * would resolve to another path). Returns the refusal, naming the field, the value and the fix,
 * or `undefined` when the URL is the host's.
 *
 * @example
 * ```ts
 * const refusal = checkHostUrl('callUrl', view.shown.callUrl, { page: location, config, dev: import.meta.dev })
 * if (refusal) console.error(refusal)
 * ```
 */
export function checkHostUrl(field: McpHostUrlField, value: unknown, context: McpHostUrlContext): string | undefined {
  const { page, config, dev } = context
  const shown = typeof value === 'string' ? `"${value}"` : String(value)
  const refuse = (reason: string) => `Refused ${field} ${shown} from the chat's message data: ${reason}. Message data is not the host's word (a stored or shared conversation carries what anyone wrote); only a part this host wrote for this page is shown.`
  if (typeof value !== 'string') return refuse('it is not a string')
  if (!config) return refuse('this page has no host config (runtimeConfig.public.mcpHost, which the module writes when mcp.host is on): is mcp.host set?')
  if (field === 'sandboxUrl') {
    let expected: string | undefined
    try {
      expected = sandboxUrlFor(page, config.appsSandboxOrigin, dev)
    }
    catch (error) {
      return refuse(error instanceof Error ? error.message : String(error))
    }
    if (!expected) return refuse('this host has no sandbox origin for views (set mcp.host.apps.sandboxOrigin)')
    return value === expected ? undefined : refuse(`this host's sandbox page for this page is "${expected}"`)
  }
  const route = field === 'callUrl' ? config.appsRoute : config.respondRoute
  const pattern = new RegExp(`^${escapeRegExp(route)}/${SEGMENT}${field === 'callUrl' ? '/call' : ''}$`)
  const expected = field === 'callUrl' ? `${route}/<id>/call` : `${route}/<id>`
  let resolved: URL
  try {
    resolved = new URL(value, page.origin)
  }
  catch {
    return refuse(`it is not a URL; this host's is a path "${expected}"`)
  }
  // The path as written must be the path the browser would request: no dot segments, no `%2e`.
  if (!pattern.test(value) || resolved.origin !== page.origin || resolved.pathname !== value) return refuse(`this host's is a path "${expected}" of the page's own origin`)
  return undefined
}
