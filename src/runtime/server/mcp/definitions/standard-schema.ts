import type { JSONObject, Tool } from '@modelcontextprotocol/server'
import { isRecord } from '../../common/is-record'
import { issuePath, readStandardJsonSchema, type McpStandardSchema } from '../../common/standard-schema'
import type { ArgumentsCheck } from './definitions'

/**
 * The listed form and the check of a Standard Schema's arguments: its library's own converter
 * gives the JSON Schema (`input`, draft 2020-12; the `$schema` line dropped, as for Zod), and its
 * own `validate` checks the arguments, so the handler gets that library's output, typed. A schema
 * without a converter, or one that is not an object schema, fails at startup naming the tool.
 *
 * @example
 * ```ts
 * const { listed, check } = standardArguments(type({ n: 'number' }), 'tool "count"', 'input')
 * await check({ n: 'x' }) // { ok: false, problem: 'n: must be a number (was a string)' }
 * ```
 */
export function standardArguments(schema: McpStandardSchema, where: string, io: 'input' | 'output'): { listed: Tool['inputSchema'], check: ArgumentsCheck } {
  const props = schema['~standard']
  const read = readStandardJsonSchema(schema, io)
  if (!read.ok && read.missing) throw new Error(`[nuxt-mcp-elicitation] ${where}: its ${io}Schema (${props.vendor}) is a Standard Schema without a JSON Schema converter (~standard.jsonSchema), so it cannot be listed: ${read.fix}.`)
  if (!read.ok) throw new Error(`[nuxt-mcp-elicitation] ${where}: its ${io}Schema (${props.vendor}) could not be converted to JSON Schema (${read.error}). Leave out what JSON Schema cannot say (transforms, functions), or describe it with a Zod shape.`)
  const { $schema: _dialect, ...rest } = read.json
  const data: JSONObject = JSON.parse(JSON.stringify(rest))
  if (data.type !== 'object') throw new Error(`[nuxt-mcp-elicitation] ${where}: its ${io}Schema (${props.vendor}) is not an object schema (its JSON Schema has type ${JSON.stringify(data.type)}): arguments are named fields, so describe an object.`)
  return {
    listed: { ...data, type: 'object' },
    check: standardCheck(schema, io === 'input' ? '(arguments)' : '(root)'),
  }
}

/**
 * A Standard Schema's `validate` as an arguments check: the library's output when it is an
 * object, else each issue as `path: message` (`root` for an issue about the whole value).
 *
 * @example
 * ```ts
 * await standardCheck(type({ n: 'number' }), '(arguments)')({ n: 'x' }) // { ok: false, problem: 'n: n must be a number (was a string)' }
 * ```
 */
export function standardCheck(schema: McpStandardSchema, root: string): ArgumentsCheck {
  return async (value) => {
    const result = await schema['~standard'].validate(value)
    if (result.issues) return { ok: false, problem: result.issues.map(issue => `${issuePath(issue).join('.') || root}: ${issue.message}`).join('; ') }
    return isRecord(result.value) ? { ok: true, data: result.value } : { ok: false, problem: `${root}: must be an object` }
  }
}
