/**
 * Build-time reading of whether a tool may hand a JSON Schema written by hand to `inputSchema`:
 * only then does a Worker's bundle carry the JSON Schema validator (6 kB gzip). Read without
 * running the file, with the Babel parser Vue's compiler ships, so it errs one way only: a value
 * it cannot tell apart from such a schema (an imported schema, a call other than `z.…`, a spread)
 * counts as one. The runtime refuses a JSON Schema this reading missed, naming the tool.
 */
import { readFile } from 'node:fs/promises'
import { childOf, childrenOf, findCall } from './apps/ast'
import type { AstNode, SfcCompiler } from './apps/ast'

/** The calls whose object literal declares a tool: in `server/mcp/tools/*`, and in a view. */
const DEFINE_CALLS = new Set(['defineMcpTool', 'defineMcpView'])

/** `x as const`, `x satisfies T`, `(x)`: the expression inside. */
function unwrap(node: AstNode): AstNode {
  const inner = childOf(node, 'expression')
  return ['TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression', 'ParenthesizedExpression'].includes(node.type) && inner ? unwrap(inner) : node
}

/** A property's key as written (`type`, `'type'`), or `undefined` when computed. */
function keyName(property: AstNode): string | undefined {
  if (property.computed === true) return undefined
  const key = childOf(property, 'key')
  if (key?.type === 'Identifier') return String(key.name)
  if (key?.type === 'StringLiteral') return String(key.value)
  return undefined
}

/** Whether an expression is rooted at the identifier `z` (`z.string()`, `z.object({ … }).strict()`). */
function isZodExpression(node: AstNode): boolean {
  const inner = childOf(node, 'callee') ?? childOf(node, 'object')
  if (node.type === 'Identifier') return node.name === 'z'
  return (node.type === 'CallExpression' || node.type === 'MemberExpression') && inner !== undefined && isZodExpression(inner)
}

/**
 * Whether the value of `inputSchema` may be a JSON Schema written by hand. At run time that is an
 * object whose `type` is `"object"`: a Zod shape (every value a `z.…` schema, a field named `type`
 * included) and a `z.…` schema are not; an object literal whose `type` is the string `"object"`,
 * or anything not read here, may be.
 */
function mayBeJsonSchema(value: AstNode): boolean {
  const node = unwrap(value)
  if (node.type !== 'ObjectExpression') return !isZodExpression(node)
  const properties = childrenOf(node, 'properties')
  if (properties.some(property => property.type !== 'ObjectProperty' || keyName(property) === undefined)) return true
  const type = properties.find(property => keyName(property) === 'type')
  const typeValue = type && childOf(type, 'value')
  if (!typeValue) return false
  return !isZodExpression(unwrap(typeValue))
}

/**
 * Whether the tool a file declares (`defineMcpTool({ … })`, or a view's `defineMcpView({ … })`
 * script) may hand a JSON Schema written by hand to `inputSchema`. A file that does not parse, or
 * whose call does not take an object literal, may; one without the call may when it is a tool
 * file (`withoutCall`: its default export is read by no one here), not when it is a view's script.
 *
 * @example
 * ```ts
 * mayDeclareJsonSchema(sfc.babelParse, `defineMcpTool({ inputSchema: { text: z.string() }, handler })`) // false
 * mayDeclareJsonSchema(sfc.babelParse, `defineMcpTool({ inputSchema: { type: 'object' }, handler })`)   // true
 * ```
 */
export function mayDeclareJsonSchema(parse: SfcCompiler['babelParse'], source: string, withoutCall = true): boolean {
  let program: unknown
  try {
    program = parse(source, { sourceType: 'module', plugins: ['typescript'] }).program
  }
  catch {
    return true
  }
  const call = findCall(program, DEFINE_CALLS)
  if (!call) return withoutCall
  const [argument] = childrenOf(call, 'arguments')
  const object = argument && unwrap(argument)
  if (object?.type !== 'ObjectExpression') return true
  const properties = childrenOf(object, 'properties')
  if (properties.some(property => property.type === 'SpreadElement' || (property.type !== 'ObjectMethod' && keyName(property) === undefined))) return true
  const input = properties.find(property => keyName(property) === 'inputSchema')
  if (!input) return false
  const value = childOf(input, 'value')
  return input.type !== 'ObjectProperty' || !value || mayBeJsonSchema(value)
}

/**
 * Whether any of the app's tools may hand a JSON Schema written by hand to `inputSchema`: its
 * tool files (every endpoint's), and the tools its views declare in `defineMcpView({ … })`.
 *
 * @example
 * ```ts
 * const keep = await anyMayDeclareJsonSchema(sfc, toolPaths, viewPaths)
 * ```
 */
export async function anyMayDeclareJsonSchema(sfc: SfcCompiler, tools: string[], views: string[]): Promise<boolean> {
  for (const path of tools) {
    if (mayDeclareJsonSchema(sfc.babelParse, await readFile(path, 'utf8'))) return true
  }
  for (const path of views) {
    const { descriptor } = sfc.parse(await readFile(path, 'utf8'), { filename: path })
    const script = descriptor.scriptSetup?.content ?? descriptor.script?.content ?? ''
    if (mayDeclareJsonSchema(sfc.babelParse, script, false)) return true
  }
  return false
}
