/**
 * Walking the Babel tree that Vue's compiler parses, for the build's readers of definition files and
 * views: they read what the source shows without running it.
 */

/** The slice of `vue/compiler-sfc` the readers use (resolved from the app: the Vue it builds with). */
export type SfcCompiler = Pick<typeof import('vue/compiler-sfc'), 'parse' | 'babelParse'>

/** A Babel AST node, only as far as the view readers look at it (Vue's compiler ships the parser). */
export interface AstNode {
  type: string
  start?: number | null
  end?: number | null
  [key: string]: unknown
}

/**
 * Whether a value is an AST node: how the readers walk Babel's tree without its types.
 *
 * @example
 * ```ts
 * const statements = program.body.filter(isNode)
 * ```
 */
export function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
}

/**
 * Where a node is in the source it was parsed from.
 *
 * @example
 * ```ts
 * source.slice(...spanOf(node))
 * ```
 */
export function spanOf(node: AstNode): [number, number] {
  return [node.start ?? 0, node.end ?? 0]
}

/**
 * A node's child node under `key`, if it is one.
 *
 * @example
 * ```ts
 * childOf(property, 'value')
 * ```
 */
export function childOf(node: AstNode, key: string): AstNode | undefined {
  const value = node[key]
  return isNode(value) ? value : undefined
}

/**
 * A node's child nodes under `key` (a list), skipping holes.
 *
 * @example
 * ```ts
 * childrenOf(objectExpression, 'properties')
 * ```
 */
export function childrenOf(node: AstNode, key: string): AstNode[] {
  const value = node[key]
  return Array.isArray(value) ? value.filter(isNode) : []
}

const DEFINE_VIEW: ReadonlySet<string> = new Set(['defineMcpView'])

/**
 * Depth-first search for the first call of one of `names` (by default `defineMcpView(…)`).
 *
 * @example
 * ```ts
 * const call = findCall(program.body)
 * const tool = findCall(program.body, new Set(['defineMcpTool']))
 * ```
 */
export function findCall(node: unknown, names: ReadonlySet<string> = DEFINE_VIEW): AstNode | undefined {
  if (Array.isArray(node)) {
    for (const child of node) {
      const found = findCall(child, names)
      if (found) return found
    }
    return undefined
  }
  if (!isNode(node)) return undefined
  const callee = node.callee
  if (node.type === 'CallExpression' && isNode(callee) && callee.type === 'Identifier' && names.has(String(callee.name))) return node
  for (const [key, child] of Object.entries(node)) {
    if (key === 'loc' || key === 'start' || key === 'end' || key === 'extra') continue
    const found = findCall(child, names)
    if (found) return found
  }
  return undefined
}

/**
 * A property's key as written (`type`, `'type'`), or `undefined` when computed or numeric.
 *
 * @example
 * ```ts
 * keyName(property) // 'inputSchema'
 * ```
 */
export function keyName(property: AstNode): string | undefined {
  if (property.computed === true) return undefined
  const key = childOf(property, 'key')
  if (key?.type === 'Identifier') return String(key.name)
  if (key?.type === 'StringLiteral') return String(key.value)
  return undefined
}

/**
 * The expression inside `x as const`, `x satisfies T`, `x!` and `(x)`.
 *
 * @example
 * ```ts
 * unwrap(argument).type === 'ObjectExpression' // for `{ … } as const` too
 * ```
 */
export function unwrap(node: AstNode): AstNode {
  const inner = childOf(node, 'expression')
  return ['TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression', 'ParenthesizedExpression'].includes(node.type) && inner ? unwrap(inner) : node
}
