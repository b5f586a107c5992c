import { type } from 'arktype'
import * as v from 'valibot'
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import type { McpStandardSchema } from '../../../../src/runtime/server/common/standard-schema'
import type { FormResult } from '../../../../src/runtime/server/elicitation/ask'
import { parseFormAnswer, toFormSchema, type FormOutput } from '../../../../src/runtime/server/elicitation/schema'
import { expectRefusal, expectSpecValid } from '../../../utils/spec-forms'

/**
 * The schema zoo's Valibot and ArkType columns: the constructs of `form-schema.test.ts` written in each
 * library, converted by the library's own JSON Schema converter, and judged by the strict spec
 * schemas of both eras. Where a library writes a construct differently (or cannot), the row says so.
 */

const valibotField = (field: v.GenericSchema) => toStandardJsonSchema(v.object({ field }))
const arktypeField = (field: string | object): McpStandardSchema => type.raw({ field })

const titledValibot = v.union([v.pipe(v.literal('a'), v.title('Alpha')), v.pipe(v.literal('b'), v.title('Beta')), v.literal('c')])
const titledOptions = [{ const: 'a', title: 'Alpha' }, { const: 'b', title: 'Beta' }, { const: 'c', title: 'c' }]

type Row = [name: string, schema: McpStandardSchema, wire: object, required?: boolean]

const rows: Row[] = [
  // Valibot
  ['valibot: plain string', valibotField(v.string()), { type: 'string' }],
  ['valibot: labelled string', valibotField(v.pipe(v.string(), v.minLength(2), v.maxLength(40), v.title('Name'), v.description('Full name'))), { type: 'string', title: 'Name', description: 'Full name', minLength: 2, maxLength: 40 }],
  ['valibot: exact length', valibotField(v.pipe(v.string(), v.length(5))), { type: 'string', minLength: 5, maxLength: 5 }],
  ['valibot: email', valibotField(v.pipe(v.string(), v.email())), { type: 'string', format: 'email' }],
  ['valibot: url', valibotField(v.pipe(v.string(), v.url())), { type: 'string', format: 'uri' }],
  ['valibot: iso date', valibotField(v.pipe(v.string(), v.isoDate())), { type: 'string', format: 'date' }],
  ['valibot: iso timestamp', valibotField(v.pipe(v.string(), v.isoTimestamp())), { type: 'string', format: 'date-time' }],
  ['valibot: uuid is a plain string', valibotField(v.pipe(v.string(), v.uuid())), { type: 'string' }],
  ['valibot: ipv4 is a plain string', valibotField(v.pipe(v.string(), v.ipv4())), { type: 'string' }],
  ['valibot: regex is a plain string', valibotField(v.pipe(v.string(), v.regex(/^[A-Z]+$/))), { type: 'string' }],
  ['valibot: optional', valibotField(v.optional(v.string())), { type: 'string' }, false],
  ['valibot: string default', valibotField(v.optional(v.string(), 'hi')), { type: 'string', default: 'hi' }, false],
  ['valibot: number', valibotField(v.pipe(v.number(), v.minValue(0), v.maxValue(10.5))), { type: 'number', minimum: 0, maximum: 10.5 }],
  ['valibot: integer', valibotField(v.pipe(v.number(), v.integer())), { type: 'integer' }],
  ['valibot: int exclusive → inclusive', valibotField(v.pipe(v.number(), v.integer(), v.gtValue(0), v.ltValue(10))), { type: 'integer', minimum: 1, maximum: 9 }],
  ['valibot: number exclusive dropped', valibotField(v.pipe(v.number(), v.gtValue(0))), { type: 'number' }],
  ['valibot: boolean default false', valibotField(v.optional(v.boolean(), false)), { type: 'boolean', default: false }, false],
  ['valibot: picklist', valibotField(v.picklist(['a', 'b'])), { type: 'string', enum: ['a', 'b'] }],
  ['valibot: picklist default', valibotField(v.optional(v.picklist(['a', 'b']), 'b')), { type: 'string', enum: ['a', 'b'], default: 'b' }, false],
  ['valibot: single literal', valibotField(v.literal('yes')), { type: 'string', enum: ['yes'] }],
  ['valibot: titled union', valibotField(titledValibot), { type: 'string', oneOf: titledOptions }],
  ['valibot: multi select', valibotField(v.pipe(v.array(v.picklist(['x', 'y'])), v.minLength(1), v.maxLength(2))), { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['x', 'y'] } }],
  ['valibot: titled multi select', valibotField(v.pipe(v.array(titledValibot), v.minLength(1))), { type: 'array', minItems: 1, items: { anyOf: titledOptions } }],
  // ArkType
  ['arktype: plain string', arktypeField('string'), { type: 'string' }],
  ['arktype: length range', arktypeField('2 <= string <= 40'), { type: 'string', minLength: 2, maxLength: 40 }],
  ['arktype: described string', arktypeField(type('string').describe('Full name')), { type: 'string', description: 'Full name' }],
  ['arktype: email', arktypeField('string.email'), { type: 'string', format: 'email' }],
  ['arktype: url', arktypeField('string.url'), { type: 'string', format: 'uri' }],
  ['arktype: uuid (a union of strings) is a plain string', arktypeField('string.uuid'), { type: 'string', description: 'a UUID' }],
  ['arktype: iso date (a pattern) is a plain string', arktypeField('string.date.iso'), { type: 'string' }],
  ['arktype: regex is a plain string', arktypeField('/^[A-Z]+$/'), { type: 'string' }],
  ['arktype: number', arktypeField('0 <= number <= 10.5'), { type: 'number', minimum: 0, maximum: 10.5 }],
  ['arktype: integer', arktypeField('number.integer'), { type: 'integer' }],
  ['arktype: int exclusive → inclusive', arktypeField('0 < number.integer < 10'), { type: 'integer', minimum: 1, maximum: 9 }],
  ['arktype: number exclusive dropped', arktypeField('number > 0'), { type: 'number' }],
  ['arktype: boolean', arktypeField('boolean'), { type: 'boolean' }],
  // ArkType 2.2's converter drops defaults (`= false` and `= true` alike): the form shows none, the field is optional, and ArkType still fills it in.
  ['arktype: boolean default (dropped by its converter)', arktypeField('boolean = false'), { type: 'boolean' }, false],
  ['arktype: literal union', arktypeField('"a" | "b"'), { type: 'string', enum: ['a', 'b'] }],
  ['arktype: single literal', arktypeField('"yes"'), { type: 'string', enum: ['yes'] }],
  ['arktype: titled union', arktypeField(type('"a"').configure({ title: 'Alpha' }).or(type('"b"'))), { type: 'string', oneOf: [{ const: 'a', title: 'Alpha' }, { const: 'b', title: 'b' }] }],
  ['arktype: multi select', arktypeField('("x" | "y")[] >= 1'), { type: 'array', minItems: 1, items: { type: 'string', enum: ['x', 'y'] } }],
]

describe('toFormSchema from Standard Schema libraries: allowed constructs', () => {
  it.each(rows)('%s', (_name, schema, wire, required = true) => {
    const form = toFormSchema(schema)
    expect(form.properties.field).toStrictEqual(wire)
    expect(form.required).toStrictEqual(required ? ['field'] : undefined)
    expectSpecValid(form)
  })

  it('keeps an ArkType union\'s title on the field, not on every option', () => {
    const form = toFormSchema(type({ plan: type('"a" | "b"').configure({ title: 'Plan' }) }))
    expect(form.properties.plan).toStrictEqual({ type: 'string', title: 'Plan', enum: ['a', 'b'] })
  })
})

describe('toFormSchema from Standard Schema libraries: refusals name the field, the library and the way out', () => {
  const cases: [string, McpStandardSchema, string, ...string[]][] = [
    ['valibot: nested object', valibotField(v.object({ city: v.string() })), 'field', 'Flatten', '(valibot schema)'],
    ['valibot: array of numbers', valibotField(v.array(v.number())), 'field', 'array of a picklist'],
    ['valibot: mixed union', valibotField(v.union([v.string(), v.number()])), 'field', 'union of string literals'],
    ['valibot: nullable', valibotField(v.nullable(v.string())), 'field', 'optional instead of nullable'],
    ['valibot: lazy ($ref)', valibotField(v.lazy(() => v.string())), 'field', '$ref'],
    ['valibot: number literal', valibotField(v.literal(1)), 'field', 'string values'],
    ['arktype: nested object', arktypeField({ city: 'string' }), 'field', 'Flatten', '(arktype schema)'],
    ['arktype: array of numbers', arktypeField('number[]'), 'field', 'array of a picklist'],
    ['arktype: mixed union', arktypeField('string | number'), 'field', 'union of string literals'],
    ['arktype: nullable', arktypeField('string | null'), 'field', 'optional instead of nullable'],
    ['arktype: Date (no JSON Schema type)', arktypeField('Date'), 'field', 'no form type', 'ISO string'],
  ]
  it.each(cases)('%s', (_name, schema, field, ...snippets) => expectRefusal(schema, field, ...snippets))

  it('refuses the form as a whole for what is not a form of fields', () => {
    expectRefusal(v.object({ name: v.string() }), undefined, 'valibot', 'toStandardJsonSchema()')
    expectRefusal(toStandardJsonSchema(v.object({ at: v.date() })), undefined, 'could not be converted', 'date')
    expectRefusal(type('string'), undefined, 'not an object schema')
    expectRefusal(type({}), undefined, 'no fields')
  })

  it('applies the sensitive-field rule to every library', () => {
    expectRefusal(toStandardJsonSchema(v.object({ apiKey: v.string() })), 'apiKey', 'elicit.url()')
    expectRefusal(type({ value: type('string').describe('Paste your GitHub token') }), 'value', 'its description')
    expect(toFormSchema(type({ apiKey: 'string' }), { allowSensitive: true }).properties.apiKey).toStrictEqual({ type: 'string' })
  })
})

describe('answers are checked by the library itself', () => {
  const valibotForm = toStandardJsonSchema(v.object({
    email: v.pipe(v.string(), v.email()),
    seats: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1),
    plan: v.picklist(['free', 'pro']),
  }))
  const arktypeForm = type({ 'email': 'string.email', 'seats': 'number.integer >= 1 = 1', 'plan': '"free" | "pro"' })

  it.each([
    ['Valibot', valibotForm],
    ['ArkType', arktypeForm],
  ])('%s: a valid answer comes back with defaults applied; each problem names its field', (_library, schema) => {
    expect(parseFormAnswer(schema, { email: 'ada@example.com', plan: 'pro' })).toStrictEqual({ ok: true, value: { email: 'ada@example.com', seats: 1, plan: 'pro' } })
    const refused = parseFormAnswer(schema, { email: 'nope', seats: 0, extra: 'x' })
    expect(refused.ok).toBe(false)
    if (refused.ok) return
    expect(refused.issues).toContain('unexpected field \'extra\'')
    for (const field of ['email', 'seats', 'plan']) expect(refused.issues.some(issue => issue.startsWith(`"${field}": `)), `${field} in ${JSON.stringify(refused.issues)}`).toBe(true)
    // Values no form field can hold are refused before the library sees them.
    const objectValue = parseFormAnswer(schema, { email: { nested: true }, plan: 'pro' })
    expect(objectValue).toStrictEqual({ ok: false, issues: ['"email": expected a string, number, boolean or list of strings, received {"nested":true}'] })
  })

  it('types the answer with the library\'s inferred output', () => {
    expectTypeOf<FormOutput<typeof valibotForm>>().toEqualTypeOf<{ email: string, seats: number, plan: 'free' | 'pro' }>()
    expectTypeOf<FormOutput<typeof arktypeForm>>().toEqualTypeOf<{ email: string, seats: number, plan: 'free' | 'pro' }>()
    // What `await elicit.form({ schema: valibotForm })` resolves with.
    expectTypeOf<Extract<FormResult<typeof valibotForm>, { action: 'accept' }>['content']>().toEqualTypeOf<{ email: string, seats: number, plan: 'free' | 'pro' }>()
    const verdict = parseFormAnswer(valibotForm, { email: 'a@b.co', plan: 'free' })
    if (verdict.ok) {
      // @ts-expect-error: the form has no such field
      expect(verdict.value.nickname).toBeUndefined()
      expect(verdict.value.seats).toBe(1)
    }
  })

  it('refuses an answer a library checks asynchronously, saying why (a hand-written Standard Schema)', () => {
    const asynchronous: McpStandardSchema<{ name: string }> = {
      '~standard': {
        version: 1,
        vendor: 'hand-written',
        validate: async () => ({ value: { name: 'checked later' } }),
        jsonSchema: { input: () => ({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }), output: () => ({}) },
      },
    }
    expect(toFormSchema(asynchronous)).toStrictEqual({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] })
    const verdict = parseFormAnswer(asynchronous, { name: 'Ada' })
    expect(verdict.ok).toBe(false)
    if (!verdict.ok) expect(verdict.issues[0]).toContain('asynchronously, which forms do not support')
  })

  it('leaves Zod objects on the Zod reading (they are Standard Schemas too)', () => {
    expect(toFormSchema(z.object({ n: z.int().positive() }))).toStrictEqual({ type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] })
  })
})
