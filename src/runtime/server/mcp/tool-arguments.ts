import { z } from 'zod'
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker'
import type { JSONObject, Tool } from '@modelcontextprotocol/server'
import { isRecord } from '../common/is-record'
import { isZod4Schema } from '../elicitation/schema/zod4'
import type { McpJsonSchema, McpZodShape } from './definitions'
import { describeIssues } from './results'
import type { ArgumentsCheck } from './arguments-check'

/**
 * Whether a tool's `inputSchema` is a JSON Schema written by hand (an object schema: its `type`
 * is the string `"object"`) rather than a Zod raw shape, whose values are all Zod schemas.
 *
 * @example
 * ```ts
 * isMcpJsonSchema({ type: 'object', properties: {} }) // true
 * isMcpJsonSchema({ type: z.string() })                // false: a Zod shape with a field "type"
 * ```
 */
export function isMcpJsonSchema(value: unknown): value is McpJsonSchema {
  // (A Zod object has `type: 'object'` too: it is a Standard Schema, asked about first.)
  return isRecord(value) && value.type === 'object' && !('~standard' in value)
}

/** A JSON copy: what is listed and what is checked no longer change if the definition's object does. */
function copyOf(schema: McpJsonSchema, where: string): JSONObject {
  try {
    const copy: JSONObject = JSON.parse(JSON.stringify(schema))
    if (isRecord(copy)) return copy
  }
  catch {}
  throw new Error(`[nuxt-mcp-elicitation] ${where}: its inputSchema is not JSON data (a cycle, or a BigInt). Write it as plain JSON Schema.`)
}

/** The lines of a validator message that say something (the validator adds "A subschema had errors." above each cause). */
function causesOf(message: string): string {
  const causes = message.split('; ').filter(line => !/A subschema had errors\.$/.test(line))
  return (causes.length > 0 ? causes : [message]).join('; ')
}

/**
 * The listed form and the check of a hand-written JSON Schema (2020-12 unless its `$schema` names
 * 2019-09 or draft-07): listed exactly as written, key order kept, and checked by
 * `@cfworker/json-schema` (bundled in the MCP SDK), which compiles nothing, so it runs on
 * Cloudflare Workers as on Node. A schema it cannot use fails when the server starts, naming the tool.
 *
 * @example
 * ```ts
 * const { listed, check } = jsonSchemaArguments({ type: 'object', properties: { n: { type: 'integer' } } }, 'tool "count"')
 * check({ n: 'x' }) // { ok: false, problem: '#/n: Instance type "string" is invalid. Expected "integer".' }
 * ```
 */
export function jsonSchemaArguments(schema: McpJsonSchema, where: string): { listed: Tool['inputSchema'], check: ArgumentsCheck } {
  const listed = copyOf(schema, where)
  let validate: ReturnType<CfWorkerJsonSchemaValidator['getValidator']>
  try {
    // Its own copy: the validator marks every subschema it walks.
    validate = new CfWorkerJsonSchemaValidator({ shortcircuit: false }).getValidator(copyOf(schema, where))
  }
  catch (error) {
    throw new Error(`[nuxt-mcp-elicitation] ${where}: its inputSchema cannot be used (${error instanceof Error ? error.message : String(error)}). Supported: JSON Schema 2020-12, 2019-09 and draft-07.`)
  }
  return {
    listed: { ...listed, type: 'object' },
    check: (value) => {
      try {
        const result = validate(value)
        if (!result.valid) return { ok: false, problem: causesOf(result.errorMessage) }
        return isRecord(result.data) ? { ok: true, data: result.data } : { ok: false, problem: '(arguments): must be an object' }
      }
      catch (error) {
        // (An unresolvable $ref surfaces only when it is reached.)
        return { ok: false, problem: `the tool's inputSchema could not be applied: ${error instanceof Error ? error.message : String(error)}` }
      }
    },
  }
}

/** The check of a Zod raw shape's arguments (or structured output, `root` naming the whole); `where` names the tool when a value is no Zod schema. */
export function zodArguments(shape: McpZodShape, where: string, root = '(arguments)'): ArgumentsCheck {
  const [field] = Object.entries(shape).find(([, value]) => !isZod4Schema(value)) ?? []
  if (field !== undefined) {
    throw new Error(`[nuxt-mcp-elicitation] ${where}: its inputSchema is neither a Zod shape (its field "${field}" is no Zod 4 schema) nor a JSON Schema object (type "object"). Write { ${field}: z.string(), … }, or a JSON Schema with type: 'object'.`)
  }
  const schema = z.object(shape)
  return (value) => {
    const parsed = schema.safeParse(value)
    return parsed.success ? { ok: true, data: parsed.data } : { ok: false, problem: describeIssues(parsed.error, root) }
  }
}
