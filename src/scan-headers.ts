/**
 * Build-time reading of the `x-mcp-header` annotations written literally in a tool file (SEP-2243),
 * without running it: a raw JSON Schema property (`region: { type: 'string', 'x-mcp-header':
 * 'Region' }`) or a Zod field (`region: z.string().meta({ 'x-mcp-header': 'Region' })`). What the
 * source text shows is checked here, so a bad name fails `nuxi build`; whatever it cannot see (a
 * name in a variable, a schema built elsewhere, where the property sits) is checked when the
 * server starts (`runtime/server/mcp/definitions/header-params.ts`), with the same rules.
 */

/** One annotation found in the source: the property it is on, when it can be told, and its name. */
export interface ScannedHeader { property?: string, header: string, type?: string }

// RFC 9110's token, the same rule the runtime applies.
const TOKEN = /^[!#$%&'*+\-.^`|~\w]+$/
const ANNOTATION = /(['"])x-mcp-header\1\s*:\s*(['"])((?:(?!\2)[^\\\n])*)\2/g
const PRIMITIVES = new Set(['string', 'integer', 'number', 'boolean'])
// Zod constructors whose value is no primitive: a header there has no one value to mirror.
const ZOD_NON_PRIMITIVE = /^z\.(object|array|record|tuple|map|set|strictObject|looseObject)\s*\(/

/** Index of the bracket that opens the group holding `index`, or -1. */
function openerOf(source: string, index: number): number {
  let depth = 0
  for (let i = index - 1; i >= 0; i--) {
    const char = source[i]!
    if (')]}'.includes(char)) depth++
    else if ('([{'.includes(char)) {
      if (depth === 0) return i
      depth--
    }
  }
  return -1
}

/**
 * The key whose value holds the object opened at `brace`, and the text of that value before the
 * object: walks back over the value expression (`z.string().meta(`), leaving call parentheses,
 * until the `key:` that owns it; `undefined` at a `,` or an object's start (no key).
 */
function ownerOf(source: string, brace: number): { key: string, value: string } | undefined {
  let depth = 0
  for (let i = brace - 1; i >= 0; i--) {
    const char = source[i]!
    if (')]}'.includes(char)) depth++
    else if ('([{'.includes(char)) {
      // Leaving a call's argument list keeps us in the same value (`.meta(` → `z.string()`).
      if (depth === 0 && char !== '(') return undefined
      if (depth > 0) depth--
    }
    else if (depth === 0 && char === ',') return undefined
    else if (depth === 0 && char === ':') {
      const key = /(?:(['"])([^'"\n]+)\1|([A-Za-z_$][\w$]*))\s*$/.exec(source.slice(0, i))
      const name = key?.[2] ?? key?.[3]
      return name === undefined ? undefined : { key: name, value: source.slice(i + 1, brace).trim() }
    }
  }
  return undefined
}

/** The JSON `type` written at the top level of the object opened at `brace`, when it is a string literal. */
function ownJsonType(source: string, brace: number): string | undefined {
  let depth = 0
  for (let i = brace + 1; i < source.length; i++) {
    const char = source[i]!
    if ('([{'.includes(char)) depth++
    else if (')]}'.includes(char)) {
      if (depth === 0) return undefined
      depth--
    }
    else if (depth === 0 && /[\s,{]/.test(source[i - 1] ?? '')) {
      const type = /^(['"]?)type\1\s*:\s*(['"])(\w+)\2/.exec(source.slice(i))
      if (type) return type[3]
    }
  }
  return undefined
}

/**
 * Every `x-mcp-header` annotation written literally in `source`, with its property and, when the
 * source shows it, its type (`'object'` for a `z.object(…)`-like value).
 *
 * @example
 * ```ts
 * scanHeaderAnnotations(`region: z.string().meta({ 'x-mcp-header': 'Region' })`)
 * // [{ property: 'region', header: 'Region' }]
 * ```
 */
export function scanHeaderAnnotations(source: string): ScannedHeader[] {
  return [...source.matchAll(ANNOTATION)].map((match) => {
    const brace = openerOf(source, match.index)
    const owner = brace >= 0 && source[brace] === '{' ? ownerOf(source, brace) : undefined
    const zodKind = owner && ZOD_NON_PRIMITIVE.exec(owner.value)?.[1]
    const type = zodKind ? 'object' : owner?.value === '' ? ownJsonType(source, brace) : undefined
    return { header: match[3]!, ...(owner && { property: owner.key }), ...(type && { type }) }
  })
}

/**
 * The problems of a tool file's literal `x-mcp-header` annotations, each naming the property and
 * the rule: not a header name, the same name twice in the tool (case-insensitive), or on a value
 * that is no primitive.
 *
 * @example
 * ```ts
 * headerProblems(`a: { type: 'string', 'x-mcp-header': 'Re gion' }`)
 * // ['property "a": x-mcp-header "Re gion" is not a header name (letters, digits and !#$%&\'*+-.^_`|~ only)']
 * ```
 */
export function headerProblems(source: string): string[] {
  const problems: string[] = []
  const seen = new Map<string, string>()
  for (const { property, header, type } of scanHeaderAnnotations(source)) {
    const at = property === undefined ? `x-mcp-header "${header}"` : `property "${property}": x-mcp-header "${header}"`
    if (!TOKEN.test(header)) problems.push(`${at} is not a header name (letters, digits and !#$%&'*+-.^_\`|~ only)`)
    const other = seen.get(header.toLowerCase())
    if (other !== undefined) problems.push(`${at} repeats the header of ${other} (header names are case-insensitive): give each argument its own name`)
    seen.set(header.toLowerCase(), property === undefined ? `"${header}"` : `property "${property}"`)
    if (type !== undefined && !PRIMITIVES.has(type)) problems.push(`${at} is on a value of type ${type}: only a string, number, integer or boolean has one value to mirror`)
  }
  return problems
}
