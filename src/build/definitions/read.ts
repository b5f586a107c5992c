/**
 * Build-time reading of one definition file (`server/mcp/{tools,resources,prompts}/*`), without
 * running it: one Babel parse (the parser Vue's compiler ships) and one walk give everything the
 * build needs. What the source does not show literally (a name in a variable, a schema built
 * elsewhere) is left to the server's start, which checks the same rules on the real values.
 */
import { readFile } from 'node:fs/promises'
import { childOf, childrenOf, findCall, isNode, keyName, unwrap } from '../ast'
import type { AstNode, SfcCompiler } from '../ast'

/**
 * The field of a tool's definition that names its view (`view: 'chart'`): the one place the
 * build reads it by name.
 */
export const VIEW_FIELD = 'view'

/** The calls whose object literal is a definition file's definition. */
const DEFINE_CALLS: ReadonlySet<string> = new Set(['defineMcpTool', 'defineMcpResource', 'defineMcpPrompt'])

/**
 * One `x-mcp-header` annotation written literally in a tool file (SEP-2243): the property it is
 * on, when the source tells it, its header name, and the property's JSON type when written.
 *
 * @example
 * ```ts
 * const header: ScannedHeader = { property: 'region', header: 'Region', type: 'string' }
 * ```
 */
export interface ScannedHeader { property?: string, header: string, type?: string }

/**
 * What the build reads of one definition file.
 *
 * @example
 * ```ts
 * const reading: DefinitionReading = readDefinition(sfc.babelParse, source)
 * if (reading.view) checkTheViewExists(reading.view)
 * ```
 */
export interface DefinitionReading {
  /** The `name` written as a string at the top level of the `defineMcp*({ … })` object. */
  name?: string
  /** The view a tool names (its {@link VIEW_FIELD}), as a string. */
  view?: string
  /** Whether the definition writes a top-level `description` (shorthand and methods included). */
  hasDescription: boolean
  /** Every literal `x-mcp-header` annotation in the file, in source order. */
  headers: ScannedHeader[]
  /**
   * Whether the tool may hand a JSON Schema written by hand to `inputSchema`: it errs one way
   * only, so what it cannot tell apart from such a schema (an imported schema, a spread, a file
   * that does not parse) counts as one.
   */
  mayDeclareJsonSchema: boolean
  /** Zod constructs written inside `.form({ … })` calls that a form cannot hold. */
  refusedFormConstructs: string[]
}

/** Constructs a form field cannot be (the runtime refuses them with 'invalid-schema'), by the `z.<name>(` call. */
const REFUSED_IN_FORMS: [string, string][] = [
  ['object', 'z.object (nested objects)'],
  ['record', 'z.record'],
  ['tuple', 'z.tuple'],
  ['date', 'z.date (use z.iso.date() or z.iso.datetime())'],
  ['discriminatedUnion', 'z.discriminatedUnion'],
]
/** `z.array(…)` of these is refused: only an array of enum values is a form field. */
const REFUSED_ARRAY_ITEMS = new Set(['number', 'boolean', 'object', 'string'])
const REFUSED_ARRAY = 'z.array of anything but enums (use z.array(z.enum([...])))'

// Zod constructors whose value is no primitive: a header there has no one value to mirror.
const ZOD_NON_PRIMITIVE = /^z\.(object|array|record|tuple|map|set|strictObject|looseObject)\s*\(/
const CALLS = new Set(['CallExpression', 'OptionalCallExpression'])
const MEMBERS = new Set(['MemberExpression', 'OptionalMemberExpression'])
const WRAPPERS = new Set(['TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression', 'ParenthesizedExpression'])
/** Keys of a Babel node that hold no child node worth walking. */
const SKIPPED_KEYS = new Set(['loc', 'start', 'end', 'extra', 'leadingComments', 'trailingComments', 'innerComments', 'comments'])

/** A string literal's value, or a template literal's without `${…}`. */
function stringOf(node: AstNode | undefined): string | undefined {
  if (node?.type === 'StringLiteral') return String(node.value)
  if (node?.type === 'TemplateLiteral' && childrenOf(node, 'expressions').length === 0) {
    const [quasi] = node.quasis as { value: { cooked: string | null } }[]
    return quasi?.value.cooked ?? undefined
  }
  return undefined
}

/** `<name>` of a call written `z.<name>(…)`. */
function zodCallName(node: AstNode): string | undefined {
  const callee = childOf(node, 'callee')
  if (!CALLS.has(node.type) || !callee || !MEMBERS.has(callee.type) || callee.computed === true) return undefined
  const object = childOf(callee, 'object')
  const property = childOf(callee, 'property')
  return object?.type === 'Identifier' && object.name === 'z' && property?.type === 'Identifier' ? String(property.name) : undefined
}

/** The `z.<name>(` an expression's chain starts with (`z.string().min(1)` → `string`). */
function zodRoot(node: AstNode): string | undefined {
  let current: AstNode | undefined = node
  while (current) {
    const name = zodCallName(current)
    if (name) return name
    current = CALLS.has(current.type) ? childOf(current, 'callee') : MEMBERS.has(current.type) ? childOf(current, 'object') : WRAPPERS.has(current.type) ? childOf(current, 'expression') : undefined
  }
  return undefined
}

/** The labels of {@link REFUSED_IN_FORMS} a call node is, when it is one of them. */
function refusedLabels(node: AstNode): string[] {
  const name = zodCallName(node)
  if (!name) return []
  const labels = REFUSED_IN_FORMS.filter(([refused]) => refused === name).map(([, label]) => label)
  const [item] = childrenOf(node, 'arguments')
  if (name === 'array' && item && REFUSED_ARRAY_ITEMS.has(zodRoot(item) ?? '')) labels.push(REFUSED_ARRAY)
  return labels
}

/** Whether a call is `<anything>.form({ … })`: an elicitation form, whose schema is checked. */
function isFormCall(node: AstNode): boolean {
  const callee = childOf(node, 'callee')
  const property = callee && childOf(callee, 'property')
  const [argument] = childrenOf(node, 'arguments')
  return CALLS.has(node.type) && callee !== undefined && MEMBERS.has(callee.type) && callee.computed !== true
    && property?.type === 'Identifier' && property.name === 'form' && argument !== undefined && unwrap(argument).type === 'ObjectExpression'
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
 * Whether the tool a `defineMcpTool({ … })` or `defineMcpView({ … })` call declares may hand a JSON
 * Schema written by hand to `inputSchema`: a call whose argument is no object literal, or holds a
 * spread or computed key, may.
 */
function callMayDeclareJsonSchema(call: AstNode): boolean {
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
 * The key whose value holds `object`, and that value's text before the object: climbs out of the
 * call chain the object is the first argument of (`z.string().meta({ … })`) to the `key:` that
 * owns it; `undefined` anywhere else (an array, a later argument, a variable).
 */
function ownerOf(source: string, object: AstNode, ancestors: AstNode[]): { key: string, value: string } | undefined {
  let child = object
  for (let index = ancestors.length - 1; index >= 0; index--) {
    const parent = ancestors[index]!
    if (parent.type === 'ObjectProperty' && parent.value === child) {
      const key = keyName(parent)
      return key === undefined ? undefined : { key, value: source.slice(child.start ?? 0, object.start ?? 0).trim() }
    }
    const [first] = childrenOf(parent, 'arguments')
    const inChain = (CALLS.has(parent.type) && (parent.callee === child || first === child))
      || (MEMBERS.has(parent.type) && parent.object === child)
      || (WRAPPERS.has(parent.type) && parent.expression === child)
    if (!inChain) return undefined
    child = parent
  }
  return undefined
}

/** The JSON `type` written as a string at the top level of `object`. */
function ownJsonType(object: AstNode): string | undefined {
  for (const property of childrenOf(object, 'properties')) {
    const type = property.type === 'ObjectProperty' && keyName(property) === 'type' ? stringOf(childOf(property, 'value')) : undefined
    if (type !== undefined && /^\w+$/.test(type)) return type
  }
  return undefined
}

/** The header annotation `property` is (`'x-mcp-header': 'Region'`), with its owner and type. */
function readHeader(source: string, property: AstNode, ancestors: AstNode[]): ScannedHeader | undefined {
  const key = childOf(property, 'key')
  const header = childOf(property, 'value')
  if (property.type !== 'ObjectProperty' || property.computed === true || key?.type !== 'StringLiteral' || key.value !== 'x-mcp-header' || header?.type !== 'StringLiteral') return undefined
  const object = ancestors.at(-1)
  const owner = object?.type === 'ObjectExpression' ? ownerOf(source, object, ancestors.slice(0, -1)) : undefined
  const zodKind = owner && ZOD_NON_PRIMITIVE.exec(owner.value)?.[1]
  const type = zodKind ? 'object' : owner?.value === '' && object ? ownJsonType(object) : undefined
  return { header: String(header.value), ...(owner && { property: owner.key }), ...(type && { type }) }
}

/** The top-level keys of a definition's object literal, each with its value node (`undefined` for a method). */
function topLevelKeys(call: AstNode | undefined): Map<string, AstNode | undefined> {
  const keys = new Map<string, AstNode | undefined>()
  const [argument] = call ? childrenOf(call, 'arguments') : []
  const object = argument && unwrap(argument)
  if (object?.type !== 'ObjectExpression') return keys
  for (const property of childrenOf(object, 'properties')) {
    const key = keyName(property)
    // The first of a key written twice, as a reader of the file sees it first.
    if (key !== undefined && !keys.has(key)) keys.set(key, childOf(property, 'value'))
  }
  return keys
}

/**
 * Reads a definition file's source in one parse and one walk: the definition's `name`, the view it
 * names, whether it has a `description`, its literal `x-mcp-header` annotations, whether it may
 * write a JSON Schema by hand, and the constructs its forms cannot hold. A file that does not parse
 * yields nothing but "may write a JSON Schema" (the server build then reports the syntax error).
 *
 * @example
 * ```ts
 * readDefinition(sfc.babelParse, `export default defineMcpTool({ name: 'ship', view: 'map', handler })`)
 * // { name: 'ship', view: 'map', hasDescription: false, headers: [], mayDeclareJsonSchema: false, refusedFormConstructs: [] }
 * ```
 */
export function readDefinition(parse: SfcCompiler['babelParse'], source: string): DefinitionReading {
  let program: unknown
  try {
    program = parse(source, { sourceType: 'module', plugins: ['typescript'] }).program
  }
  catch {
    return { hasDescription: false, headers: [], mayDeclareJsonSchema: true, refusedFormConstructs: [] }
  }
  let call: AstNode | undefined
  const headers: { at: number, header: ScannedHeader }[] = []
  const forms: Set<string>[] = []
  // Each form whose argument the walk is inside, so a construct counts for every form around it.
  const openForms: { argument: AstNode, found: Set<string> }[] = []
  const ancestors: AstNode[] = []
  const visit = (node: AstNode): void => {
    if (CALLS.has(node.type)) {
      const callee = childOf(node, 'callee')
      if (!call && callee?.type === 'Identifier' && DEFINE_CALLS.has(String(callee.name))) call = node
      for (const label of refusedLabels(node)) for (const form of openForms) form.found.add(label)
    }
    const header = readHeader(source, node, ancestors)
    if (header) headers.push({ at: node.start ?? 0, header })
    const form = isFormCall(node) ? { argument: childrenOf(node, 'arguments')[0]!, found: new Set<string>() } : undefined
    if (form) forms.push(form.found)
    ancestors.push(node)
    for (const [key, value] of Object.entries(node)) {
      if (SKIPPED_KEYS.has(key)) continue
      for (const child of Array.isArray(value) ? value : [value]) {
        if (!isNode(child)) continue
        const entering = form?.argument === child
        if (entering) openForms.push(form)
        visit(child)
        if (entering) openForms.pop()
      }
    }
    ancestors.pop()
  }
  visit(program as AstNode)
  const keys = topLevelKeys(call)
  const name = stringOf(keys.get('name'))
  const view = stringOf(keys.get(VIEW_FIELD))
  const callee = call && childOf(call, 'callee')
  // Only a tool's `inputSchema` is read at run time as arguments; a file without `defineMcpTool` may.
  const mayDeclareJsonSchema = callee?.name === 'defineMcpTool' ? callMayDeclareJsonSchema(call!) : true
  const refused = new Set<string>()
  for (const found of forms) for (const label of [...REFUSED_IN_FORMS.map(([, label]) => label), REFUSED_ARRAY]) if (found.has(label)) refused.add(label)
  return {
    ...(name && { name }),
    ...(view !== undefined && { view }),
    hasDescription: keys.has('description'),
    headers: headers.sort((a, b) => a.at - b.at).map(entry => entry.header),
    mayDeclareJsonSchema,
    refusedFormConstructs: [...refused],
  }
}

// RFC 9110's token, the same rule the runtime applies (`runtime/server/mcp/definitions/header-params.ts`).
const TOKEN = /^[!#$%&'*+\-.^`|~\w]+$/
const PRIMITIVES = new Set(['string', 'integer', 'number', 'boolean'])

/**
 * The problems of a tool's literal `x-mcp-header` annotations, each naming the property and the
 * rule: not a header name, the same name twice in the tool (case-insensitive), or on a value that
 * is no primitive. What fails `nuxi build`; the server's start checks the same on the real schema.
 *
 * @example
 * ```ts
 * headerProblems([{ property: 'a', header: 'Re gion' }])
 * // ['property "a": x-mcp-header "Re gion" is not a header name (letters, digits and !#$%&\'*+-.^_`|~ only)']
 * ```
 */
export function headerProblems(headers: ScannedHeader[]): string[] {
  const problems: string[] = []
  const seen = new Map<string, string>()
  for (const { property, header, type } of headers) {
    const at = property === undefined ? `x-mcp-header "${header}"` : `property "${property}": x-mcp-header "${header}"`
    if (!TOKEN.test(header)) problems.push(`${at} is not a header name (letters, digits and !#$%&'*+-.^_\`|~ only)`)
    const other = seen.get(header.toLowerCase())
    if (other !== undefined) problems.push(`${at} repeats the header of ${other} (header names are case-insensitive): give each argument its own name`)
    seen.set(header.toLowerCase(), property === undefined ? `"${header}"` : `property "${property}"`)
    if (type !== undefined && !PRIMITIVES.has(type)) problems.push(`${at} is on a value of type ${type}: only a string, number, integer or boolean has one value to mirror`)
  }
  return problems
}

/**
 * Whether any of the app's tools may hand a JSON Schema written by hand to `inputSchema`: its tool
 * files (every endpoint's, as {@link readDefinition} read them), and the tools its views declare
 * in `defineMcpView({ … })`. Only then does a Worker's bundle carry the JSON Schema validator.
 *
 * @example
 * ```ts
 * const keep = await anyMayDeclareJsonSchema(sfc, scannedTools, viewPaths)
 * ```
 */
export async function anyMayDeclareJsonSchema(sfc: SfcCompiler, tools: { mayDeclareJsonSchema: boolean }[], views: string[]): Promise<boolean> {
  if (tools.some(tool => tool.mayDeclareJsonSchema)) return true
  for (const path of views) {
    const { descriptor } = sfc.parse(await readFile(path, 'utf8'), { filename: path })
    const script = descriptor.scriptSetup?.content ?? descriptor.script?.content ?? ''
    let program: unknown
    try {
      program = sfc.babelParse(script, { sourceType: 'module', plugins: ['typescript'] }).program
    }
    catch {
      return true
    }
    // A view without the call declares no tool.
    const call = findCall(program)
    if (call && callMayDeclareJsonSchema(call)) return true
  }
  return false
}
