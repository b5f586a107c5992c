import { addServerHandler, addServerPlugin } from '@nuxt/kit'
import type { RuntimePath } from '../virtual-modules'
import { addCustomTab } from '@nuxt/devtools-kit'
import type { Nuxt } from '@nuxt/schema'

/** Where the DevTools tab's page lives (`.json` beside it serves its data, `.svg` its icon). `nuxi dev` only. */
export const DEVTOOLS_ROUTE = '/__mcp-elicitation/devtools'

/**
 * In `nuxi dev`: an "MCP" tab in Nuxt DevTools listing every endpoint with its URL, its
 * definitions, its tasks and its recent calls and questions. The page also opens on its own at
 * {@link DEVTOOLS_ROUTE}. What it lists is heard through the app's own `mcp:call` and
 * `mcp:question` hooks, by a Nitro plugin added here; nothing of it exists in a production build.
 *
 * @example
 * ```ts
 * if (options.devtools) setupMcpDevtools(nuxt, runtime)
 * ```
 */
export function setupMcpDevtools(nuxt: Nuxt, runtime: RuntimePath): void {
  if (!nuxt.options.dev) return
  const handler = runtime('server/routes/devtools')
  for (const suffix of ['', '.json', '.svg']) addServerHandler({ route: `${DEVTOOLS_ROUTE}${suffix}`, handler })
  addServerPlugin(runtime('server/plugins/devtools-recorder'))
  // Nitro serves its handlers under `app.baseURL`.
  const base = `${nuxt.options.app.baseURL.replace(/\/$/, '')}${DEVTOOLS_ROUTE}`
  addCustomTab({
    name: 'mcp-elicitation',
    title: 'MCP',
    // A path: Nuxt DevTools shows it as an image from the dev server (any other name is an
    // Iconify icon, fetched over the network).
    icon: `${base}.svg`,
    view: { type: 'iframe', src: base },
  }, nuxt)
}
