import { z } from 'zod'
import type { JSONObject, Tool } from '@modelcontextprotocol/server'
import { isRecord } from '../../common/is-record'
import { isStandardSchema } from '../../common/standard-schema'
import { standardArguments } from './standard-schema'
import type { JsonSchemaArguments } from './json-schema-arguments'
import { isZod4Schema } from '../../elicitation/schema'
import type { McpJsonSchema, McpToolInput, McpToolOutput, McpZodShape } from './definitions'
import { describeIssues } from './results'
import type { ArgumentsCheck } from './definitions'

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

/** A Zod object as plain JSON Schema data (a JSON round trip drops Zod's non-data members). */
function toJsonSchemaObject(shape: McpZodShape, io: 'input' | 'output'): JSONObject {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(z.object(shape), { io, unrepresentable: 'any' })
  const data: JSONObject = JSON.parse(JSON.stringify(schema))
  return data
}

/** How a tool's arguments are listed and checked: from its Zod shape, or its JSON Schema as written. */
export function toolArguments(inputSchema: McpToolInput | undefined, where: string, jsonSchema: JsonSchemaArguments | undefined): { listed: Tool['inputSchema'], check: ArgumentsCheck } {
  if (isStandardSchema(inputSchema)) return standardArguments(inputSchema, where, 'input')
  if (isMcpJsonSchema(inputSchema)) {
    if (jsonSchema) return jsonSchema(inputSchema, where)
    throw new Error(`[nuxt-mcp-elicitation] ${where}: its inputSchema is a JSON Schema written by hand, but this Worker build left the JSON Schema validator out, as it read none in the tool files. Give inputSchema in the tool file as an object literal with type: 'object', or as an imported value, and build again: the build then keeps the validator.`)
  }
  const shape = inputSchema ?? {}
  // The check first: it says which field is no Zod schema, before the conversion trips on it.
  const check = zodArguments(shape, where)
  return { listed: { ...toJsonSchemaObject(shape, 'input'), type: 'object' }, check }
}

/** How a tool's structured output is listed and checked: from its Zod shape or its Standard Schema. */
export function toolOutput(outputSchema: McpToolOutput, where: string): { listed: NonNullable<Tool['outputSchema']>, check: ArgumentsCheck } {
  if (isStandardSchema(outputSchema)) return standardArguments(outputSchema, where, 'output')
  const check = zodArguments(outputSchema, where, '(root)')
  return { listed: { ...toJsonSchemaObject(outputSchema, 'output'), type: 'object' }, check }
}
