import { z } from 'zod'
import type { PromptArgument } from '@modelcontextprotocol/server'
import { isRecord } from '../../common/is-record'
import { isStandardSchema, readStandardJsonSchema, type McpStandardSchema } from '../../common/standard-schema'
import type { ArgumentsCheck } from './definitions'
import type { McpPromptShape } from './definitions'
import { describeIssues } from './results'
import { standardCheck } from './standard-schema'

/**
 * A prompt's arguments: how `prompts/list` shows them and how `prompts/get` checks them. Prompt
 * arguments are strings on the wire (`Record<string, string>`), so a schema may declare string
 * properties only: a Zod shape of string schemas, or a Standard Schema object (Valibot through
 * `toStandardJsonSchema()`, ArkType) whose JSON Schema types every property as a string.
 */
export interface PromptArguments {
  listed: PromptArgument[]
  check: ArgumentsCheck
}

function zodPromptArguments(shape: McpPromptShape): PromptArguments {
  const object = z.object(shape)
  return {
    listed: Object.entries(shape).map(([name, schema]) => ({
      name,
      ...(schema.description && { description: schema.description }),
      required: !schema.safeParse(undefined).success,
    })),
    check: (value) => {
      const parsed = object.safeParse(value)
      return parsed.success ? { ok: true, data: parsed.data } : { ok: false, problem: describeIssues(parsed.error) }
    },
  }
}

/** Whether a property's JSON Schema only admits strings: `type: "string"`, string options, or a union of those. */
function isStringProperty(node: unknown): boolean {
  if (!isRecord(node)) return false
  if (node.type === 'string') return true
  if (Array.isArray(node.enum)) return node.enum.length > 0 && node.enum.every(value => typeof value === 'string')
  if (Object.hasOwn(node, 'const')) return typeof node.const === 'string'
  const members = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : []
  return members.length > 0 && members.every(isStringProperty)
}

function standardPromptArguments(schema: McpStandardSchema, where: string): PromptArguments {
  const { vendor } = schema['~standard']
  const read = readStandardJsonSchema(schema, 'input')
  if (!read.ok && read.missing) throw new Error(`[nuxt-mcp-elicitation] ${where}: its arguments (${vendor}) are a Standard Schema without a JSON Schema converter (~standard.jsonSchema), so they cannot be listed: ${read.fix}.`)
  if (!read.ok) throw new Error(`[nuxt-mcp-elicitation] ${where}: its arguments (${vendor}) could not be converted to JSON Schema (${read.error}). Declare string properties only.`)
  const converted = read.json
  const properties = converted.type === 'object' ? converted.properties ?? {} : undefined
  if (!isRecord(properties)) throw new Error(`[nuxt-mcp-elicitation] ${where}: its arguments (${vendor}) are not an object schema: declare an object of string properties.`)
  const required = new Set(Array.isArray(converted.required) ? converted.required : [])
  const listed = Object.entries(properties).map(([name, node]): PromptArgument => {
    if (!isStringProperty(node)) {
      throw new Error(`[nuxt-mcp-elicitation] ${where}: its argument "${name}" (${vendor}) is not a string (its JSON Schema is ${JSON.stringify(node)}). Prompt arguments are strings on the wire: declare a string and convert it in the handler.`)
    }
    const description = isRecord(node) && typeof node.description === 'string' ? node.description : undefined
    return { name, ...(description && { description }), required: required.has(name) }
  })
  return {
    listed,
    check: standardCheck(schema, '(arguments)'),
  }
}

/**
 * A prompt's listed arguments and their check, from a Zod shape or a Standard Schema object; a
 * Standard Schema with a property that is not a string fails at startup, naming the prompt and
 * the property.
 *
 * @example
 * ```ts
 * const { listed, check } = promptArguments(type({ file: 'string', 'focus?': 'string' }), 'The prompt "review"')
 * listed // [{ name: 'file', required: true }, { name: 'focus', required: false }]
 * await check({}) // { ok: false, problem: 'file: file must be a string (was missing)' }
 * ```
 */
export function promptArguments(schema: McpPromptShape | McpStandardSchema | undefined, where: string): PromptArguments {
  if (isStandardSchema(schema)) return standardPromptArguments(schema, where)
  return zodPromptArguments(schema ?? {})
}
