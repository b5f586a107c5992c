import { addServerHandler, createResolver } from '@nuxt/kit'
import { addCustomTab } from '@nuxt/devtools-kit'
import type { Nuxt } from '@nuxt/schema'

/** Where the DevTools tab's page lives (`.json` beside it serves its data). `nuxi dev` only. */
export const DEVTOOLS_ROUTE = '/__mcp-elicitation/devtools'

/**
 * In `nuxi dev`: an "MCP" tab in Nuxt DevTools listing the discovered tools, resources and
 * prompts and the latest elicitations with their outcome. The page also opens on its own at
 * {@link DEVTOOLS_ROUTE}. Nothing of it exists in a production build.
 *
 * @example
 * ```ts
 * if (options.devtools) setupMcpDevtools(nuxt)
 * ```
 */
export function setupMcpDevtools(nuxt: Nuxt): void {
  if (!nuxt.options.dev) return
  const resolver = createResolver(import.meta.url)
  const handler = resolver.resolve('./runtime/server/routes/devtools')
  addServerHandler({ route: DEVTOOLS_ROUTE, handler })
  addServerHandler({ route: `${DEVTOOLS_ROUTE}.json`, handler })
  addCustomTab({
    name: 'mcp-elicitation',
    title: 'MCP',
    icon: 'carbon:chat-bot',
    // Nitro serves its handlers under `app.baseURL`.
    view: { type: 'iframe', src: `${nuxt.options.app.baseURL.replace(/\/$/, '')}${DEVTOOLS_ROUTE}` },
  }, nuxt)
}
