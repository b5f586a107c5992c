import type { H3Event } from 'h3'
import { getRequestURL } from 'h3'

/**
 * The MCP server the playground's chat talks to: NUXT_PLAYGROUND_MCP_URL (the tests point it at
 * the MCP Apps examples from npm), by default the playground's own /mcp.
 *
 * @example
 * ```ts
 * chatServerUrl(event).href // 'http://localhost:3000/mcp'
 * ```
 */
export function chatServerUrl(event: H3Event): URL {
  return new URL(process.env.NUXT_PLAYGROUND_MCP_URL || '/mcp', getRequestURL(event).origin)
}

/**
 * A tool as `tools/list` gives it (the parts the chat page reads).
 *
 * @example
 * ```ts
 * const tool: ListedChatTool = { name: 'refresh_weather', _meta: { ui: { resourceUri: 'ui://weather', visibility: ['app'] } } }
 * ```
 */
export interface ListedChatTool {
  name: string
  description?: string
  _meta?: Record<string, unknown>
}

/**
 * Whether the model may be offered `tool`: not a tool only its view may call (`_meta.ui.visibility`
 * without `"model"`, which hosts keep from the model).
 *
 * @example
 * ```ts
 * offeredToModel({ name: 'refresh_weather', _meta: { ui: { visibility: ['app'] } } }) // false
 * ```
 */
export function offeredToModel(tool: ListedChatTool): boolean {
  const ui = tool._meta?.ui
  const visibility = typeof ui === 'object' && ui !== null && 'visibility' in ui ? ui.visibility : undefined
  return !Array.isArray(visibility) || visibility.includes('model')
}
