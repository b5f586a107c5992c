import { isRecord } from '../../common/is-record'

/**
 * A tool argument a client mirrors into an HTTP header (SEP-2243): the property carries
 * `x-mcp-header: "<Name>"`, and a 2026-07-28 client sends its value as `Mcp-Param-<Name>`, so
 * that a gateway can route on it (a region, a tenant) without reading the body.
 */
export interface McpHeaderParam {
  /** `Mcp-Param-<Name>`, as declared. */
  header: string
  /** Where the value sits in the arguments (`['region']`, or deeper through `properties`). */
  path: string[]
  type: 'string' | 'integer' | 'number' | 'boolean'
}

/** RFC 9110's token: what an HTTP field name may hold. */
const TOKEN = /^[!#$%&'*+\-.^`|~\w]+$/
const PRIMITIVE: readonly unknown[] = ['string', 'integer', 'number', 'boolean'] satisfies McpHeaderParam['type'][]

function isPrimitiveType(type: unknown): type is McpHeaderParam['type'] {
  return PRIMITIVE.includes(type)
}
/**
 * Keywords whose subschemas are not a fixed argument (a header there would have no one value to
 * mirror), by what they hold: one schema, a list of them, or a map of them (JSON Schema 2020-12).
 */
const ONE_SCHEMA = ['items', 'contains', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'propertyNames', 'not', 'if', 'then', 'else']
const SCHEMA_LISTS = ['prefixItems', 'oneOf', 'anyOf', 'allOf']
const SCHEMA_MAPS = ['patternProperties', 'dependentSchemas', '$defs', 'definitions']

/** The subschemas under `keyword` of `node`, whatever the keyword holds. */
function subschemasOf(node: Record<string, unknown>, keyword: string): unknown[] {
  const value = node[keyword]
  if (SCHEMA_LISTS.includes(keyword)) return Array.isArray(value) ? value : []
  if (SCHEMA_MAPS.includes(keyword)) return isRecord(value) ? Object.values(value) : []
  return [value]
}

/**
 * The header parameters a tool's listed input schema declares, checked as the spec asks: a name
 * that is an HTTP token, unique (case-insensitively) within the tool, on a property of a
 * primitive type reached from the root through `properties` only. A violation throws an error
 * that names the tool (`where`), the property and the rule, when the server starts.
 *
 * @example
 * ```ts
 * headerParamsOf({ type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } }, 'tool "deploy"')
 * // [{ header: 'Region', path: ['region'], type: 'string' }]
 * ```
 */
export function headerParamsOf(schema: Record<string, unknown>, where: string): McpHeaderParam[] {
  const found: McpHeaderParam[] = []
  const refusal = (at: string, rule: string) => new Error(`[nuxt-mcp-elicitation] ${where}: the x-mcp-header at ${at} ${rule}.`)
  const walk = (node: unknown, path: string[], reachable: boolean): void => {
    if (!isRecord(node)) return
    const at = path.length > 0 ? `"${path.join('.')}"` : 'the schema\'s root'
    const declared = node['x-mcp-header']
    if (declared !== undefined) {
      if (!reachable || path.length === 0) throw refusal(at, 'is not on an argument reached through properties (not under items, anyOf, $defs …): only such an argument has one value to mirror; move it there')
      if (typeof declared !== 'string' || !TOKEN.test(declared)) throw refusal(at, `is ${JSON.stringify(declared)}, which is not a header name (letters, digits and !#$%&'*+-.^_\`|~ only)`)
      const type = node.type
      if (!isPrimitiveType(type)) throw refusal(at, `is on a property of type ${JSON.stringify(type)}: only string, integer, number and boolean values can be mirrored`)
      const twin = found.find(other => other.header.toLowerCase() === declared.toLowerCase())
      if (twin) throw refusal(at, `repeats "${declared}", already the header of "${twin.path.join('.')}": header names must be unique within a tool`)
      found.push({ header: declared, path, type })
    }
    if (isRecord(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) walk(child, [...path, key], reachable)
    }
    for (const keyword of [...ONE_SCHEMA, ...SCHEMA_LISTS, ...SCHEMA_MAPS]) {
      for (const child of subschemasOf(node, keyword)) walk(child, [...path, keyword], false)
    }
  }
  walk(schema, [], true)
  return found
}
