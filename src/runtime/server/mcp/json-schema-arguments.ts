import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker'
import type { JSONObject, Tool } from '@modelcontextprotocol/server'
import { isRecord } from '../common/is-record'
import type { McpJsonSchema } from './definitions'
import type { ArgumentsCheck } from './arguments-check'

// The one file that brings the JSON Schema validator (@cfworker/json-schema, 6 kB gzip): a Worker
// build leaves it out when no tool hands a JSON Schema written by hand to `inputSchema`
// (src/preset-wings.ts), and the registry gets it through the definitions.

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

/** How a JSON Schema written by hand is listed and checked (what the definitions carry, where the build kept it). */
export type JsonSchemaArguments = typeof jsonSchemaArguments
