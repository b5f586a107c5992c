import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker'
import type { JSONObject, Tool } from '@modelcontextprotocol/server'
import { isRecord } from '../../common/is-record'
import type { McpJsonSchema } from './definitions'
import type { ArgumentsCheck } from './definitions'

// The one file that brings the JSON Schema validator (@cfworker/json-schema, 6 kB gzip): a Worker
// build leaves it out when no tool hands a JSON Schema written by hand to `inputSchema`
// (src/build/preset-wings.ts), and the registry gets it through the definitions.

/** A JSON copy: what is listed and what is checked no longer change if the definition's object does. */
function copyOf(schema: McpJsonSchema, where: string): JSONObject {
  try {
    const copy: JSONObject = JSON.parse(JSON.stringify(schema))
    if (isRecord(copy)) return copy
  }
  catch {}
  throw new Error(`[nuxt-mcp-elicitation] ${where}: its inputSchema is not JSON data (a cycle, or a BigInt). Write it as plain JSON Schema.`)
}

/**
 * The formats whose check in the validator is slower than linear in the string's length, and the
 * one to write instead. `url`'s regular expression backtracks exponentially: `http://`, 26 letters
 * and `!` took half a second, and every two more letters about four times as long, so one argument
 * could hold the server for hours. The validator's other formats were measured linear.
 */
const SLOW_FORMATS: Record<string, string> = { url: 'uri' }

// The walk follows every schema the validator may run: what its `dereference` files for a `$ref` to
// reach (an object under any keyword but these, the items of these arrays, the values of these maps),
// and what `validate` runs directly. The two differ on draft-07's `dependencies` alone: `validate`
// runs each value as a schema (an array value lists property names, and is skipped), while
// `dereference` files `dependencies` itself as one; so it is walked both ways.
const NOT_SCHEMAS = new Set(['id', '$id', '$ref', '$schema', '$anchor', '$vocabulary', '$comment', 'default', 'enum', 'const', 'required', 'type', 'maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf', 'maxLength', 'minLength', 'pattern', 'format', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties'])
const SCHEMA_ARRAYS = new Set(['prefixItems', 'items', 'allOf', 'anyOf', 'oneOf'])
const SCHEMA_MAPS = new Set(['$defs', 'definitions', 'properties', 'patternProperties', 'dependentSchemas', 'dependencies'])
/** The maps `dereference` also files as a schema of their own. */
const SCHEMA_AND_MAP = new Set(['dependencies'])

/** A key as a JSON pointer writes it. */
function pointerPart(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1')
}

/** Where `schema`, or a subschema the validator may reach, names a format of {@link SLOW_FORMATS}: JSON pointers. */
function slowFormatsIn(schema: unknown, at = '#'): { at: string, format: string }[] {
  if (!isRecord(schema)) return []
  const found = typeof schema.format === 'string' && Object.hasOwn(SLOW_FORMATS, schema.format) ? [{ at, format: schema.format }] : []
  for (const [key, value] of Object.entries(schema)) {
    if (NOT_SCHEMAS.has(key)) continue
    const here = `${at}/${pointerPart(key)}`
    if (Array.isArray(value)) {
      if (SCHEMA_ARRAYS.has(key)) value.forEach((item, index) => found.push(...slowFormatsIn(item, `${here}/${index}`)))
    }
    else if (SCHEMA_MAPS.has(key) && isRecord(value)) {
      for (const [name, item] of Object.entries(value)) found.push(...slowFormatsIn(item, `${here}/${pointerPart(name)}`))
      if (SCHEMA_AND_MAP.has(key)) found.push(...slowFormatsIn(value, here))
    }
    else found.push(...slowFormatsIn(value, here))
  }
  // A place reached both ways is named once.
  return found.filter((place, index) => found.findIndex(({ at }) => at === place.at) === index)
}

/** Refuses a schema that names a format whose check is slower than linear, naming each place and the format to write. */
function refuseSlowFormats(schema: JSONObject, where: string): void {
  const slow = slowFormatsIn(schema)
  const [first] = slow
  if (!first) return
  const places = slow.map(({ at }) => at).join(' and ')
  throw new Error(`[nuxt-mcp-elicitation] ${where}: its inputSchema says "format": "${first.format}" at ${places}. The JSON Schema validator (@cfworker/json-schema, in the MCP SDK) checks that format with a regular expression that takes exponential time on some strings, so one call could hold the server for hours. Write "format": "${SLOW_FORMATS[first.format]}" instead (RFC 3986, checked in linear time), with a "pattern" such as "^https?://" where only web addresses will do.`)
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
 * Cloudflare Workers as on Node. A schema it cannot use fails when the server starts, naming the
 * tool; so does one naming a format whose check there is slower than linear (`"url"`), with the fix.
 *
 * @example
 * ```ts
 * const { listed, check } = jsonSchemaArguments({ type: 'object', properties: { n: { type: 'integer' } } }, 'tool "count"')
 * check({ n: 'x' }) // { ok: false, problem: '#/n: Instance type "string" is invalid. Expected "integer".' }
 * ```
 */
export function jsonSchemaArguments(schema: McpJsonSchema, where: string): { listed: Tool['inputSchema'], check: ArgumentsCheck } {
  const listed = copyOf(schema, where)
  refuseSlowFormats(listed, where)
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
