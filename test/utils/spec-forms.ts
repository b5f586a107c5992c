import { readFileSync } from 'node:fs'
import path from 'node:path'
import Ajv from 'ajv'
import Ajv2020 from 'ajv/dist/2020'
import { expect } from 'vitest'
import { McpElicitationError } from '../../src/runtime/server/elicitation/error'
import { toFormSchema, type ElicitFormSchema, type FormShape } from '../../src/runtime/server/elicitation/schema'
import { repoRoot } from './fixture'

/**
 * The form schemas' judges: the official JSON Schemas of both eras' form-carrying revisions
 * (copied into test/spec/), made strict, and the refusal check every form-schema test uses.
 */

// The official schemas of both eras' form-carrying revisions, copied into the repo (test/spec/README.md).
type SpecDocument = { $schema?: string; $defs: Record<string, Record<string, unknown>> }
const REVISIONS = ['2025-11-25', '2026-07-28']
const specs: SpecDocument[] = REVISIONS.map(revision => JSON.parse(readFileSync(path.resolve(repoRoot, `test/spec/mcp-schema-${revision}.json`), 'utf8')))

const VARIANTS = ['StringSchema', 'NumberSchema', 'BooleanSchema', 'UntitledSingleSelectEnumSchema', 'TitledSingleSelectEnumSchema', 'UntitledMultiSelectEnumSchema', 'TitledMultiSelectEnumSchema', 'LegacyTitledEnumSchema']

/** The spec's $defs with `additionalProperties: false` on each variant (and its option objects), so any extra keyword fails. */
function strictDefs(spec: SpecDocument): Record<string, unknown> {
  const defs = structuredClone(spec.$defs)
  const close = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return
    const schema = node as Record<string, unknown>
    if (schema.type === 'object' && schema.properties) schema.additionalProperties = false
    for (const key of ['properties', 'items']) {
      const child = schema[key]
      if (key === 'items') close(child)
      else if (child && typeof child === 'object') Object.values(child).forEach(close)
    }
  }
  for (const name of VARIANTS) close(defs[name])
  const form = defs.ElicitRequestFormParams as { properties: { requestedSchema: Record<string, unknown> } }
  form.properties.requestedSchema.additionalProperties = false
  return defs
}

const options = { strict: false, validateFormats: false, allErrors: true }
export const validators = specs.map((spec, index) => {
  const ajv = spec.$schema?.includes('2020-12') ? new Ajv2020(options) : new Ajv(options)
  ajv.addSchema({ $id: 'mcp', $defs: strictDefs(spec) })
  return { revision: REVISIONS[index]!, field: ajv.getSchema('mcp#/$defs/PrimitiveSchemaDefinition')!, root: ajv.getSchema('mcp#/$defs/ElicitRequestFormParams/properties/requestedSchema')! }
})
/** A field is valid only when every revision's schema accepts it. */
export function validateField(field: unknown): boolean {
  return validators.every(({ field: validate }) => validate(field) === true)
}
function validateRoot(schema: unknown): boolean {
  return validators.every(({ root }) => root(schema) === true)
}
function specErrors(): string {
  return JSON.stringify(validators.map(({ revision, field, root }) => ({ revision, field: field.errors, root: root.errors })))
}

export function expectSpecValid(schema: ElicitFormSchema): void {
  expect(Object.keys(schema).every(k => ['type', 'properties', 'required'].includes(k))).toBe(true)
  expect(validateRoot(schema), specErrors()).toBe(true)
  for (const field of Object.values(schema.properties)) expect(validateField(field), JSON.stringify(field) + specErrors()).toBe(true)
  if (schema.required) expect(schema.required.length).toBeGreaterThan(0)
}

export function expectRefusal(shape: unknown, field: string | undefined, ...snippets: string[]): void {
  let caught: unknown
  try {
    toFormSchema(shape as FormShape)
  }
  catch (error) {
    caught = error
  }
  expect(caught).toBeInstanceOf(McpElicitationError)
  const error = caught as McpElicitationError
  expect(error.code).toBe('invalid-schema')
  expect(error.field).toBe(field)
  if (field !== undefined) expect(error.message).toContain(`"${field}"`)
  for (const snippet of snippets) expect(error.message).toContain(snippet)
}

