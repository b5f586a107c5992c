/**
 * The views room (`mcp/views/`): the server side of MCP Apps views, `ui://` resources built from
 * `app/mcp/*.vue` (their `_meta` for MCP Apps hosts and ChatGPT's own keys), a tool's `_meta.ui` from its `app`, the extension and what it advertises, and
 * a run's `formApp` (this file); and a tool a view declares (`view-tools.ts`, which stands on the
 * registry). It must not know how views are built (build time) nor the server's handlers.
 */
import { EXTENSION_ID, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY, getUiCapability } from '@modelcontextprotocol/ext-apps/server'
import type { McpUiResourceMeta, McpUiToolMeta } from '@modelcontextprotocol/ext-apps'
import type { ClientCapabilities, ReadResourceResult } from '@modelcontextprotocol/server'
import { McpElicitationError } from '../../elicitation/error'
import { isRecord } from '../../common/is-record'

/** One MCP App view, as the build made it (`#mcp-elicitation/views`): `app/mcp/<name>.vue` as one HTML document. */
export interface McpView {
  name: string
  /** The `.vue` file, relative to its layer, for messages. */
  file: string
  title?: string
  description?: string
  /** The resource's `_meta.ui`, from the view's `defineMcpView({ … })`. */
  ui: McpUiResourceMeta
  html: string
}

/** How a tool names its view: the view's name, or the full options the spec gives a tool's `_meta.ui`. */
export type McpToolView = string | { name: string, visibility?: McpUiToolMeta['visibility'] }

export { EXTENSION_ID as APPS_EXTENSION }

/**
 * What the endpoint advertises under the extension when it has views: app-rendered elicitation
 * (SEP-3118, draft) with it, since a form carries a view only when its handler names one.
 */
export const APPS_CAPABILITY = { elicitation: {} }

/** A view as a resource definition file would give it (the registry takes it as one). */
export interface ViewResource {
  file: string
  fallbackName: string
  definition: { uri: string, mimeType: string, title?: string, description?: string, _meta?: Record<string, unknown>, handler: () => ReadResourceResult }
}

/**
 * The views as the build wrote them, with each HTML in base64 (so that no bundler's text
 * replacement reaches into it), decoded once at startup. `atob` and `TextDecoder` exist on
 * every runtime Nitro targets.
 *
 * @example
 * ```ts
 * decodeViews([{ name: 'chart', file: 'app/mcp/chart.vue', ui: {}, html: 'PCFkb2N0eXBlIGh0bWw+' }])[0].html // '<!doctype html>'
 * ```
 */
export function decodeViews(views: McpView[]): McpView[] {
  const decoder = new TextDecoder()
  return views.map(view => ({ ...view, html: decoder.decode(Uint8Array.from(atob(view.html), char => char.charCodeAt(0))) }))
}

/** The `ui://` URI a view is served at. */
export function viewUri(name: string): string {
  return `ui://${name}`
}

/** ChatGPT's own key for a view's external origins, snake_case (OpenAI Apps SDK reference). */
export const OPENAI_WIDGET_CSP = 'openai/widgetCSP'
/** ChatGPT's own key for a view's dedicated origin, the alias of `_meta.ui.domain`. */
export const OPENAI_WIDGET_DOMAIN = 'openai/widgetDomain'

/**
 * `openai/widgetCSP` as ChatGPT reads it: `ui.csp`'s lists under snake_case names.
 *
 * @example
 * ```ts
 * const csp: OpenAiWidgetCsp = { connect_domains: ['https://api.example.com'], resource_domains: [] }
 * ```
 */
export interface OpenAiWidgetCsp {
  connect_domains: string[]
  resource_domains: string[]
  frame_domains?: string[]
}

/**
 * The `_meta` of a view's resource, for every host from the one declaration: MCP Apps' `ui`
 * as declared, plus the keys ChatGPT reads for the same things. ChatGPT renders MCP Apps but
 * widens its sandbox's CSP only from its own `openai/widgetCSP` (snake_case), not from
 * `ui.csp`, so a view that declares domains gets both; `ui.domain` is mirrored as
 * `openai/widgetDomain`. `baseUriDomains` has no ChatGPT key and stays in `ui.csp` only.
 * `connect_domains` and `resource_domains` are always both written when `csp` is declared
 * (ChatGPT's own examples do), so `csp: {}` states "nothing external" to both hosts.
 * `undefined` for a view that declares nothing.
 *
 * @example
 * ```ts
 * viewResourceMeta({ csp: { connectDomains: ['https://api.example.com'] } })
 * // { ui: { csp: { connectDomains: ['https://api.example.com'] } },
 * //   'openai/widgetCSP': { connect_domains: ['https://api.example.com'], resource_domains: [] } }
 * ```
 */
export function viewResourceMeta(ui: McpUiResourceMeta): Record<string, unknown> | undefined {
  if (Object.keys(ui).length === 0) return undefined
  const meta: Record<string, unknown> = { ui }
  if (ui.csp) {
    const csp: OpenAiWidgetCsp = { connect_domains: [...ui.csp.connectDomains ?? []], resource_domains: [...ui.csp.resourceDomains ?? []] }
    if (ui.csp.frameDomains) csp.frame_domains = [...ui.csp.frameDomains]
    meta[OPENAI_WIDGET_CSP] = csp
  }
  if (ui.domain !== undefined) meta[OPENAI_WIDGET_DOMAIN] = ui.domain
  return meta
}

/**
 * Each view as a resource definition: listed in `resources/list` with its mime type and
 * `_meta` (`viewResourceMeta`: MCP Apps' `ui` and ChatGPT's keys), read as its HTML (with the
 * same `_meta` on the content, where hosts look first).
 *
 * @example
 * ```ts
 * viewResources([{ name: 'chart', file: 'app/mcp/chart.vue', ui: {}, html: '<!doctype html>…' }])
 * // [{ file: 'app/mcp/chart.vue', fallbackName: 'chart', definition: { uri: 'ui://chart', mimeType: 'text/html;profile=mcp-app', … } }]
 * ```
 */
export function viewResources(views: McpView[]): ViewResource[] {
  return views.map((view) => {
    const uri = viewUri(view.name)
    const meta = viewResourceMeta(view.ui)
    const contents = [{ uri, mimeType: RESOURCE_MIME_TYPE, text: view.html, ...(meta && { _meta: meta }) }]
    return {
      file: view.file,
      fallbackName: view.name,
      definition: {
        uri,
        mimeType: RESOURCE_MIME_TYPE,
        ...(view.title && { title: view.title }),
        ...(view.description && { description: view.description }),
        ...(meta && { _meta: meta }),
        handler: () => ({ contents }),
      },
    }
  })
}

/**
 * The `_meta` a tool that names a view is listed with: `ui.resourceUri` (and `visibility`), plus
 * the flat `ui/resourceUri` key older hosts read, as ext-apps' `registerAppTool` sets both.
 * A view that does not exist is an error naming the tool, its file and the views there are.
 *
 * @example
 * ```ts
 * viewToolMeta('chart', views, 'The tool "show-chart" (server/mcp/tools/show-chart.ts)')
 * // { ui: { resourceUri: 'ui://chart' }, 'ui/resourceUri': 'ui://chart' }
 * ```
 */
export function viewToolMeta(view: McpToolView, views: McpView[], where: string): Record<string, unknown> {
  const { name, visibility } = typeof view === 'string' ? { name: view, visibility: undefined } : view
  if (!views.some(view => view.name === name)) {
    const known = views.map(view => `"${view.name}"`).join(', ') || 'none'
    throw new Error(`[nuxt-mcp-elicitation] ${where} shows the view "${name}", but there is no app/mcp/${name}.vue (views: ${known}). Add the view, or fix \`view\`.`)
  }
  const resourceUri = viewUri(name)
  return { ui: { resourceUri, ...(visibility && { visibility }) }, [RESOURCE_URI_META_KEY]: resourceUri }
}

/**
 * Whether a client renders app-rendered elicitations (SEP-3118): it declared form elicitation,
 * and the apps extension with `elicitation: {}` and the MCP App mime type among its `mimeTypes`.
 *
 * @example
 * ```ts
 * rendersAppElicitation({ elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'], elicitation: {} } } }) // true
 * ```
 */
export function rendersAppElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const ui: unknown = getUiCapability(capabilities)
  if (!capabilities?.elicitation?.form || !isRecord(ui)) return false
  return Array.isArray(ui.mimeTypes) && ui.mimeTypes.includes(RESOURCE_MIME_TYPE) && isRecord(ui.elicitation)
}

/**
 * The run's `formView`: a view name → its `ui://` URI when this client renders app-rendered
 * elicitations, `undefined` when it gets the plain form; a name with no view is an
 * `'unknown-view'` error in either case (a mistake shows on every client, not only some).
 *
 * @example
 * ```ts
 * const formView = formViewResolver(new Set(['date-range']), capabilities)
 * formView('date-range') // 'ui://date-range', or undefined for a client without app elicitation
 * ```
 */
export function formViewResolver(views: ReadonlySet<string>, capabilities: ClientCapabilities | undefined): (name: string) => string | undefined {
  // Read from the capabilities when a form names a view, not on every call that never does.
  let renders: boolean | undefined
  return (name) => {
    if (!views.has(name)) {
      const known = [...views].map(view => `"${view}"`).join(', ')
      throw new McpElicitationError('unknown-view', `form({ view: "${name}" }) names an MCP App view that does not exist (views: ${known}). Add app/mcp/${name}.vue, or fix \`view\`.`)
    }
    renders ??= rendersAppElicitation(capabilities)
    return renders ? viewUri(name) : undefined
  }
}
