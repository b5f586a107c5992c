import { McpUiResourceMetaSchema } from '@modelcontextprotocol/ext-apps'
import type { McpUiResourceMeta } from '@modelcontextprotocol/ext-apps'
import { findDefineMcpView, splitViewTool, VIEW_TOOL_KEYS } from './view-tool'
import { childOf, childrenOf, keyName } from '../ast'
import type { AstNode, SfcCompiler } from '../ast'
import type { ViewTool } from './view-tool'

export type { SfcCompiler } from '../ast'

/** What `defineMcpView({ … })` in a view may declare, read at build time. */
export interface ViewDefinition {
  title?: string
  description?: string
  /** The resource's `_meta.ui`: `csp`, `permissions`, `domain`, `prefersBorder`. */
  ui: McpUiResourceMeta
  /** The tool the view declares with a `handler` (@nuxtjs/mcp-toolkit's way), as source. */
  tool?: ViewTool
}



const UI_KEYS = ['csp', 'permissions', 'domain', 'prefersBorder'] as const
const KEYS = new Set<string>(['title', 'description', ...UI_KEYS])


/** A literal as plain data, or an error naming where it stops being one. */
function toData(node: AstNode, path: string, file: string): unknown {
  switch (node.type) {
    case 'StringLiteral': case 'NumericLiteral': case 'BooleanLiteral': return node.value
    case 'NullLiteral': return null
    case 'TemplateLiteral': {
      const quasis = node.quasis as { value: { cooked: string } }[]
      if (childrenOf(node, 'expressions').length === 0) return quasis[0]?.value.cooked ?? ''
      break
    }
    case 'TSAsExpression': case 'TSSatisfiesExpression': {
      const inner = childOf(node, 'expression')
      if (inner) return toData(inner, path, file)
      break
    }
    case 'ArrayExpression': return childrenOf(node, 'elements').map((element, index) => toData(element, `${path}[${index}]`, file))
    case 'ObjectExpression': {
      const data: Record<string, unknown> = {}
      for (const property of childrenOf(node, 'properties')) {
        const key = childOf(property, 'key')
        const name = key?.type === 'Identifier' ? key.name : key?.type === 'StringLiteral' ? key.value : undefined
        if (property.type !== 'ObjectProperty' || property.computed || typeof name !== 'string') {
          throw new Error(`[nuxt-mcp-elicitation] ${file}: defineMcpView(${path}) holds a spread, method or computed key. Write it as plain data (it is read at build time, without running the file).`)
        }
        const value = childOf(property, 'value')
        if (value) data[name] = toData(value, path ? `${path}.${name}` : name, file)
      }
      return data
    }
  }
  throw new Error(`[nuxt-mcp-elicitation] ${file}: defineMcpView({ ${path}: … }) is not plain data (${node.type}). Write it as literals (strings, numbers, booleans, arrays, objects): it is read at build time, without running the file.`)
}

/** The in-view names of @nuxtjs/mcp-toolkit (and of this module before its views were called views), and today's. */
const TOOLKIT_NAMES = { defineMcpApp: 'defineMcpView', useMcpApp: 'useMcpView' } as const

/**
 * Refuses a view that calls `defineMcpApp()` or `useMcpApp()`: without this the view would build
 * with no metadata and its declared tool unlisted, and fail only in the browser.
 *
 * @example
 * ```ts
 * refuseToolkitNames('<script setup>defineMcpApp({})</script>', 'app/mcp/chart.vue') // throws: rename it to defineMcpView()
 * ```
 */
export function refuseToolkitNames(source: string, file: string): void {
  for (const [old, name] of Object.entries(TOOLKIT_NAMES)) {
    if (new RegExp(`\\b${old}\\s*\\(`).test(source)) {
      throw new Error(`[nuxt-mcp-elicitation] ${file} calls ${old}(), @nuxtjs/mcp-toolkit's name: here it is ${name}(). Rename the call (docs/migrating-from-mcp-toolkit.md).`)
    }
  }
}

/**
 * Reads a view's `defineMcpView({ … })` at build time: its title, description and the resource's
 * `_meta.ui` as plain data, and, when it has a `handler`, the tool it declares (@nuxtjs/mcp-toolkit's
 * way) as source for a server module. A view without the call is an app with no metadata.
 * Metadata that is not plain data, a key the module does not know, or tool keys without a
 * `handler` fail the build with the file and the key.
 *
 * @example
 * ```ts
 * readViewDefinition(sfc, '<script setup>defineMcpView({ prefersBorder: true })</script>', 'app/mcp/chart.vue', '/app/app/mcp/chart.vue')
 * // { ui: { prefersBorder: true } }
 * ```
 */
export function readViewDefinition(sfc: SfcCompiler, source: string, file: string, path: string): ViewDefinition {
  refuseToolkitNames(source, file)
  const found = findDefineMcpView(sfc, source, file)
  if (!found) return { ui: {} }
  const properties = childrenOf(found.argument, 'properties')
  const split = splitViewTool(found.script, found.body, found.argument, path, found.rest)
  const data: Record<string, unknown> = {}
  for (const property of properties) {
    const key = keyName(property)
    if (key === undefined || property.type !== 'ObjectProperty') {
      if (split && key !== undefined && VIEW_TOOL_KEYS.has(key)) continue
      throw new Error(`[nuxt-mcp-elicitation] ${file}: defineMcpView() holds a spread, method or computed key. Write its metadata as plain data (it is read at build time, without running the file).`)
    }
    if (!KEYS.has(key) && !VIEW_TOOL_KEYS.has(key)) {
      throw new Error(`[nuxt-mcp-elicitation] ${file}: defineMcpView({ ${key} }) is not a key it knows. It takes ${[...KEYS].join(', ')}, and for a tool declared in the view ${[...VIEW_TOOL_KEYS].join(', ')}.`)
    }
    const value = childOf(property, 'value') ?? { type: 'Missing' }
    if (UI_KEYS.some(ui => ui === key)) data[key] = toData(value, key, file)
    else if ((key === 'title' || key === 'description') && (value.type === 'StringLiteral' || value.type === 'TemplateLiteral' || !split)) data[key] = toData(value, key, file)
    else if (!split) throw new Error(`[nuxt-mcp-elicitation] ${file}: defineMcpView({ ${key} }) declares a tool, but there is no \`handler\`. Add the handler, or write the tool in server/mcp/tools/ with \`view: '<view name>'\`.`)
  }
  const picked: Record<string, unknown> = {}
  for (const key of UI_KEYS) if (data[key] !== undefined) picked[key] = data[key]
  // ext-apps' own schema of a resource's `_meta.ui`: what hosts will parse is what is checked here.
  const ui = McpUiResourceMetaSchema.safeParse(picked)
  if (!ui.success) {
    const issue = ui.error.issues[0]
    throw new Error(`[nuxt-mcp-elicitation] ${file}: defineMcpView({ ${issue?.path.join('.') ?? ''} }) is not what MCP Apps allow: ${issue?.message ?? ui.error.message}.`)
  }
  for (const key of ['title', 'description'] as const) {
    if (data[key] !== undefined && typeof data[key] !== 'string') throw new Error(`[nuxt-mcp-elicitation] ${file}: defineMcpView({ ${key} }) must be a string.`)
  }
  return {
    ...(typeof data.title === 'string' && { title: data.title }),
    ...(typeof data.description === 'string' && { description: data.description }),
    ui: ui.data,
    ...(split && { tool: split.tool }),
  }
}
