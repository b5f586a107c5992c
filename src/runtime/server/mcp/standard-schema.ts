import type { JSONObject, Tool } from '@modelcontextprotocol/server'
import { isRecord } from '../common/is-record'
import type { ArgumentsCheck } from './arguments-check'

/**
 * A schema of any library that implements Standard Schema (`~standard.validate`) and Standard
 * JSON Schema (`~standard.jsonSchema`): ArkType 2 as it is, Valibot through
 * `toStandardJsonSchema()` (`@valibot/to-json-schema`), a Zod 4 object. Declared here rather than
 * imported: the spec asks implementers to copy its types, so this module needs no package for it.
 */
export interface McpStandardSchema<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>
    readonly types?: { readonly input: Input, readonly output: Output } | undefined
    readonly jsonSchema?: {
      readonly input: (options: { target: 'draft-2020-12' | (string & {}) }) => Record<string, unknown>
      readonly output: (options: { target: 'draft-2020-12' | (string & {}) }) => Record<string, unknown>
    }
  }
}

type StandardResult<Output> =
  | { readonly value: Output, readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<{ readonly message: string, readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined }> }

/** What a Standard Schema's `validate` takes. */
export type StandardInput<S extends McpStandardSchema> = NonNullable<S['~standard']['types']>['input']

/** What a Standard Schema's `validate` hands out when it passes. */
export type StandardOutput<S extends McpStandardSchema> = NonNullable<S['~standard']['types']>['output']

/**
 * Whether `value` is a Standard Schema (any library's schema object with `~standard.validate`).
 *
 * @example
 * ```ts
 * isStandardSchema(type({ name: 'string' })) // true (ArkType)
 * isStandardSchema({ name: z.string() })     // false: a Zod shape
 * ```
 */
export function isStandardSchema(value: unknown): value is McpStandardSchema {
  const props = isRecord(value) || typeof value === 'function' ? Reflect.get(value, '~standard') : undefined
  return isRecord(props) && props.version === 1 && typeof props.validate === 'function'
}

/** One segment of an issue's path. (Read with Array.from: ArkType's path is an Array subclass whose `map` does not start empty.) */
function segmentOf(segment: PropertyKey | { readonly key: PropertyKey }): string {
  return String(typeof segment === 'object' ? segment.key : segment)
}

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
  if (!props.jsonSchema) {
    const fix = props.vendor === 'valibot' ? 'wrap it in toStandardJsonSchema() from @valibot/to-json-schema' : 'use a version of the library that implements Standard JSON Schema, or write a Zod shape or a JSON Schema'
    throw new Error(`[nuxt-mcp-elicitation] ${where}: its ${io}Schema (${props.vendor}) is a Standard Schema without a JSON Schema converter (~standard.jsonSchema), so it cannot be listed: ${fix}.`)
  }
  let converted: Record<string, unknown>
  try {
    converted = props.jsonSchema[io]({ target: 'draft-2020-12' })
  }
  catch (error) {
    throw new Error(`[nuxt-mcp-elicitation] ${where}: its ${io}Schema (${props.vendor}) could not be converted to JSON Schema (${error instanceof Error ? error.message : String(error)}). Leave out what JSON Schema cannot say (transforms, functions), or describe it with a Zod shape.`)
  }
  const { $schema: _dialect, ...rest } = converted
  const data: JSONObject = JSON.parse(JSON.stringify(rest))
  if (data.type !== 'object') throw new Error(`[nuxt-mcp-elicitation] ${where}: its ${io}Schema (${props.vendor}) is not an object schema (its JSON Schema has type ${JSON.stringify(data.type)}): arguments are named fields, so describe an object.`)
  return {
    listed: { ...data, type: 'object' },
    check: async (value) => {
      const result = await props.validate(value)
      if (result.issues) return { ok: false, problem: result.issues.map(issue => `${Array.from(issue.path ?? [], segmentOf).join('.') || (io === 'input' ? '(arguments)' : '(root)')}: ${issue.message}`).join('; ') }
      return isRecord(result.value) ? { ok: true, data: result.value } : { ok: false, problem: `(${io === 'input' ? 'arguments' : 'root'}): must be an object` }
    },
  }
}
