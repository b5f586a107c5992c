import { McpUiResourceMetaSchema } from '@modelcontextprotocol/ext-apps'
import type { McpUiResourceMeta } from '@modelcontextprotocol/ext-apps'

/** What `defineMcpApp({ … })` in a view may declare, read at build time. */
export interface ViewDefinition {
  title?: string
  description?: string
  /** The resource's `_meta.ui`: `csp`, `permissions`, `domain`, `prefersBorder`. */
  ui: McpUiResourceMeta
}

/** The slice of `vue/compiler-sfc` this file uses (resolved from the app, the Vue it builds with). */
export type SfcCompiler = Pick<typeof import('vue/compiler-sfc'), 'parse' | 'babelParse'>

/** A Babel AST node, only as far as this file looks at it. */
interface AstNode {
  type: string
  [key: string]: unknown
}

const UI_KEYS = ['csp', 'permissions', 'domain', 'prefersBorder'] as const
const KEYS = new Set<string>(['title', 'description', ...UI_KEYS])

function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
}

/** Depth-first search for the first `defineMcpApp(…)` call. */
function findCall(node: unknown): AstNode | undefined {
  if (Array.isArray(node)) {
    for (const child of node) {
      const found = findCall(child)
      if (found) return found
    }
    return undefined
  }
  if (!isNode(node)) return undefined
  const callee = node.callee
  if (node.type === 'CallExpression' && isNode(callee) && callee.type === 'Identifier' && callee.name === 'defineMcpApp') return node
  for (const [key, child] of Object.entries(node)) {
    if (key === 'loc' || key === 'start' || key === 'end' || key === 'extra') continue
    const found = findCall(child)
    if (found) return found
  }
  return undefined
}

/** A literal as plain data, or an error naming where it stops being one. */
function toData(node: AstNode, path: string, file: string): unknown {
  switch (node.type) {
    case 'StringLiteral': case 'NumericLiteral': case 'BooleanLiteral': return node.value
    case 'NullLiteral': return null
    case 'TemplateLiteral': {
      const quasis = node.quasis as { value: { cooked: string } }[]
      if ((node.expressions as unknown[]).length === 0) return quasis[0]?.value.cooked ?? ''
      break
    }
    case 'TSAsExpression': case 'TSSatisfiesExpression': return toData(node.expression as AstNode, path, file)
    case 'ArrayExpression': return (node.elements as AstNode[]).map((element, index) => toData(element, `${path}[${index}]`, file))
    case 'ObjectExpression': {
      const data: Record<string, unknown> = {}
      for (const property of node.properties as AstNode[]) {
        const key = property.key as AstNode | undefined
        const name = key?.type === 'Identifier' ? key.name : key?.type === 'StringLiteral' ? key.value : undefined
        if (property.type !== 'ObjectProperty' || property.computed || typeof name !== 'string') {
          throw new Error(`[nuxt-mcp-elicitation] ${file}: defineMcpApp(${path}) holds a spread, method or computed key. Write it as plain data (it is read at build time, without running the file).`)
        }
        data[name] = toData(property.value as AstNode, path ? `${path}.${name}` : name, file)
      }
      return data
    }
  }
  throw new Error(`[nuxt-mcp-elicitation] ${file}: defineMcpApp({ ${path}: … }) is not plain data (${node.type}). Write it as literals (strings, numbers, booleans, arrays, objects): it is read at build time, without running the file.`)
}

/**
 * Reads a view's `defineMcpApp({ … })` statically: its title, description and the resource's
 * `_meta.ui`. A view without the call is an app with no metadata. Anything but plain data, or a
 * key the module does not know, fails the build with the file and the key.
 *
 * @example
 * ```ts
 * readViewDefinition(sfc, '<script setup>defineMcpApp({ prefersBorder: true })</script>', 'app/mcp/chart.vue')
 * // { ui: { prefersBorder: true } }
 * ```
 */
export function readViewDefinition(sfc: SfcCompiler, source: string, file: string): ViewDefinition {
  const { descriptor } = sfc.parse(source, { filename: file })
  const code = [descriptor.scriptSetup?.content, descriptor.script?.content].filter(Boolean).join('\n;\n')
  if (!code.includes('defineMcpApp')) return { ui: {} }
  const ast = sfc.babelParse(code, { sourceType: 'module', plugins: ['typescript'] })
  const call = findCall(ast.program.body)
  if (!call) return { ui: {} }
  const [argument] = call.arguments as AstNode[]
  if (!argument || argument.type !== 'ObjectExpression') {
    throw new Error(`[nuxt-mcp-elicitation] ${file}: defineMcpApp() takes one object literal ({ title, description, csp, permissions, domain, prefersBorder }).`)
  }
  const data = toData(argument, '', file) as Record<string, unknown>
  for (const key of Object.keys(data)) {
    if (!KEYS.has(key)) throw new Error(`[nuxt-mcp-elicitation] ${file}: defineMcpApp({ ${key} }) is not a key it knows. It takes ${[...KEYS].join(', ')}. (To declare the tool, write it in server/mcp/tools/ with \`app: '<view name>'\`.)`)
  }
  const picked: Record<string, unknown> = {}
  for (const key of UI_KEYS) if (data[key] !== undefined) picked[key] = data[key]
  // ext-apps' own schema of a resource's `_meta.ui`: what hosts will parse is what is checked here.
  const ui = McpUiResourceMetaSchema.safeParse(picked)
  if (!ui.success) {
    const issue = ui.error.issues[0]
    throw new Error(`[nuxt-mcp-elicitation] ${file}: defineMcpApp({ ${issue?.path.join('.') ?? ''} }) is not what MCP Apps allow: ${issue?.message ?? ui.error.message}.`)
  }
  for (const key of ['title', 'description'] as const) {
    if (data[key] !== undefined && typeof data[key] !== 'string') throw new Error(`[nuxt-mcp-elicitation] ${file}: defineMcpApp({ ${key} }) must be a string.`)
  }
  return {
    ...(typeof data.title === 'string' && { title: data.title }),
    ...(typeof data.description === 'string' && { description: data.description }),
    ui: ui.data,
  }
}
