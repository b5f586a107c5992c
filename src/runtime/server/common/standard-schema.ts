import { isRecord } from './is-record'

/**
 * A schema of any library that implements Standard Schema (`~standard.validate`) and, for
 * listing and forms, Standard JSON Schema (`~standard.jsonSchema`): ArkType 2 as it is, Valibot
 * through `toStandardJsonSchema()` (`@valibot/to-json-schema`), a Zod object. Declared here rather
 * than imported: the spec asks implementers to copy its types, so no package is needed for it.
 * Both the tool registry (arguments, structured output) and the form builder read it.
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

/** One problem a Standard Schema reports. */
export interface StandardIssue {
  readonly message: string
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined
}

/** What a Standard Schema's `validate` returns. */
export type StandardResult<Output> =
  | { readonly value: Output, readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardIssue> }

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

/**
 * The path of an issue as plain segments. (Read with Array.from: ArkType's path is an Array
 * subclass whose `map` does not start empty.)
 *
 * @example
 * ```ts
 * issuePath({ message: 'too short', path: [{ key: 'name' }] }) // ['name']
 * ```
 */
export function issuePath(issue: StandardIssue): string[] {
  return Array.from(issue.path ?? [], segment => String(typeof segment === 'object' ? segment.key : segment))
}

/**
 * The way out for a Standard Schema without a JSON Schema converter, by library.
 *
 * @example
 * ```ts
 * missingConverterFix('valibot') // 'wrap it in toStandardJsonSchema() from @valibot/to-json-schema'
 * ```
 */
export function missingConverterFix(vendor: string): string {
  if (vendor === 'valibot') return 'wrap it in toStandardJsonSchema() from @valibot/to-json-schema'
  // Zod 3 objects (zod/v3, zod@3) are Standard Schemas without a converter; Zod 4 has one built in.
  if (vendor === 'zod') return 'write it with Zod 4 (import { z } from "zod"): Zod 3 has no JSON Schema converter'
  return 'use a version of the library that implements Standard JSON Schema (~standard.jsonSchema), or write a Zod shape'
}

/** What a Standard Schema's own converter gave: its JSON Schema, or why there is none. */
export type StandardJsonSchemaRead =
  | { ok: true, json: Record<string, unknown> }
  | { ok: false, missing: true, fix: string }
  | { ok: false, missing: false, error: string }

/**
 * The JSON Schema (draft 2020-12) a Standard Schema's library makes of its input or output side;
 * when it cannot, whether the converter is missing (and the way out for that library) or what
 * the conversion threw. Each caller words the refusal for what it builds (a listing, a form).
 *
 * @example
 * ```ts
 * const read = readStandardJsonSchema(type({ n: 'number' }), 'input')
 * if (read.ok) read.json // { $schema: …, type: 'object', properties: { n: { type: 'number' } }, … }
 * ```
 */
export function readStandardJsonSchema(schema: McpStandardSchema, io: 'input' | 'output'): StandardJsonSchemaRead {
  const { vendor, jsonSchema } = schema['~standard']
  if (!jsonSchema) return { ok: false, missing: true, fix: missingConverterFix(vendor) }
  try {
    return { ok: true, json: jsonSchema[io]({ target: 'draft-2020-12' }) }
  }
  catch (error) {
    return { ok: false, missing: false, error: error instanceof Error ? error.message : String(error) }
  }
}

/**
 * The params of a paged list method (`tasks/list`, `skills/list`): an optional `cursor`, the
 * `nextCursor` of the previous page; anything else is refused naming the field.
 *
 * @example
 * ```ts
 * server.setRequestHandler('skills/list', { params: PAGE_PARAMS }, async ({ cursor }) => listFrom(cursor))
 * ```
 */
export const PAGE_PARAMS: McpStandardSchema<unknown, { cursor?: string }> = {
  '~standard': {
    version: 1,
    vendor: 'nuxt-mcp-elicitation',
    validate: (value) => {
      const cursor = isRecord(value) ? value.cursor : undefined
      if (cursor === undefined) return { value: {} }
      return typeof cursor === 'string' ? { value: { cursor } } : { issues: [{ message: 'params.cursor must be a string: the nextCursor of the previous page', path: ['cursor'] }] }
    },
  },
}
