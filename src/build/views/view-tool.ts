import { dirname, resolve } from 'pathe'
import { childOf, childrenOf, findCall, isNode, spanOf } from '../ast'
import type { AstNode, SfcCompiler } from '../ast'

/** The keys that declare a tool inside a view (@nuxtjs/mcp-toolkit's way): code, moved to the server. */
export const VIEW_TOOL_KEYS = new Set(['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'handler', 'cache', 'execution', 'scopes', 'enabled', '_meta', 'visibility'])

/** The tool a view declares: its definition's source and the imports it uses, for a server module. */
export interface ViewTool {
  /** `{ description, inputSchema, handler, … }` as written in the view. */
  source: string
  /** The view's import declarations the tool uses, relative paths made absolute. */
  imports: string[]
}

/** Where the tool's parts are in the view's `<script setup>`, to strip them from the browser bundle. */
export interface ViewToolSpans {
  /** The `defineMcpView(…)` argument: replaced by `{}` in the browser. */
  argument: [number, number]
  /** Import declarations only the tool uses: removed from the browser. */
  imports: [number, number][]
}


/** The local names an import declaration binds. */
function boundNames(declaration: AstNode): string[] {
  return childrenOf(declaration, 'specifiers').flatMap((specifier) => {
    const name = childOf(specifier, 'local')?.name
    return typeof name === 'string' ? [name] : []
  })
}

function mentions(text: string, name: string): boolean {
  return new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`).test(text)
}

/**
 * Splits out the tool a view declares in `defineMcpView({ …, handler })` (@nuxtjs/mcp-toolkit's
 * way): the tool keys' source and the imports they use go to a server module; the spans say what
 * to take out of the view's browser bundle, so a handler never ships to the browser.
 */
export function splitViewTool(script: string, body: AstNode[], argument: AstNode, viewPath: string, rest: string): { tool: ViewTool, spans: ViewToolSpans } | undefined {
  const properties = childrenOf(argument, 'properties').filter(property => property.type === 'ObjectProperty' || property.type === 'ObjectMethod')
  const keyOf = (property: AstNode) => {
    const key = childOf(property, 'key')
    return key?.name ?? key?.value
  }
  const toolProperties = properties.filter(property => VIEW_TOOL_KEYS.has(String(keyOf(property))))
  if (!toolProperties.some(property => keyOf(property) === 'handler')) return undefined
  const source = `{\n  ${toolProperties.map(property => script.slice(...spanOf(property))).join(',\n  ')},\n}`
  const imports: string[] = []
  const stripped: [number, number][] = []
  for (const declaration of body.filter(node => node.type === 'ImportDeclaration')) {
    const names = boundNames(declaration)
    if (!names.some(name => mentions(source, name))) continue
    const specifier = String(childOf(declaration, 'source')?.value ?? '')
    const text = script.slice(...spanOf(declaration))
    imports.push(specifier.startsWith('.') ? text.replace(specifier, resolve(dirname(viewPath), specifier)) : text)
    // Kept in the browser only when the view itself uses one of its names elsewhere.
    if (!names.some(name => mentions(rest, name))) stripped.push(spanOf(declaration))
  }
  return { tool: { source, imports }, spans: { argument: spanOf(argument), imports: stripped } }
}

/** A view's `defineMcpView(…)` call, found in the script block that holds it. */
export interface DefineMcpViewCall {
  /** The block's source, and where it starts in the SFC. */
  script: string
  offset: number
  body: AstNode[]
  argument: AstNode
  /** Everything of the SFC but this call's argument and the block's imports: what the view itself uses. */
  rest: string
}

/**
 * Finds `defineMcpView({ … })` in a view's `<script setup>` (or `<script>`), parsed with the Babel
 * that Vue's compiler ships. `undefined` when the view does not call it.
 *
 * @example
 * ```ts
 * const call = findDefineMcpView(sfc, source, 'app/mcp/chart.vue')
 * ```
 */
export function findDefineMcpView(sfc: SfcCompiler, source: string, file: string): DefineMcpViewCall | undefined {
  const { descriptor } = sfc.parse(source, { filename: file })
  const block = [descriptor.scriptSetup, descriptor.script].find(candidate => candidate?.content.includes('defineMcpView'))
  if (!block) return undefined
  const statements: unknown[] = sfc.babelParse(block.content, { sourceType: 'module', plugins: ['typescript'] }).program.body
  const body = statements.filter(isNode)
  const call = findCall(body)
  if (!call) return undefined
  const [argument] = childrenOf(call, 'arguments')
  if (!argument || argument.type !== 'ObjectExpression') {
    throw new Error(`[nuxt-mcp-elicitation] ${file}: defineMcpView() takes one object literal ({ title, description, csp, permissions, domain, prefersBorder }, and a tool's description, inputSchema and handler).`)
  }
  const cut = [argument, ...body.filter(node => node.type === 'ImportDeclaration')].sort((a, b) => Number(b.start) - Number(a.start))
  let script = block.content
  for (const node of cut) script = script.slice(0, Number(node.start)) + script.slice(Number(node.end))
  const rest = source.slice(0, block.loc.start.offset) + script + source.slice(block.loc.end.offset)
  return { script: block.content, offset: block.loc.start.offset, body, argument, rest }
}


/**
 * The view's source as the browser bundle gets it: a tool declared in `defineMcpView({ handler })`
 * taken out (its argument becomes `{}`, the imports only it uses are dropped), so no handler, and
 * nothing it imports, ships to the browser.
 *
 * @example
 * ```ts
 * const browser = browserSourceOf(sfc, source, 'app/mcp/weather.vue', '/app/app/mcp/weather.vue')
 * ```
 */
export function browserSourceOf(sfc: SfcCompiler, source: string, file: string, path: string): string {
  const found = findDefineMcpView(sfc, source, file)
  const split = found && splitViewTool(found.script, found.body, found.argument, path, found.rest)
  if (!found || !split) return source
  const cuts = [{ span: split.spans.argument, text: '{}' }, ...split.spans.imports.map(span => ({ span, text: '' }))].sort((a, b) => b.span[0] - a.span[0])
  let script = found.script
  for (const cut of cuts) script = script.slice(0, cut.span[0]) + cut.text + script.slice(cut.span[1])
  return source.slice(0, found.offset) + script + source.slice(found.offset + found.script.length)
}
