import fc from 'fast-check'
import { describe, expect, expectTypeOf, it } from 'vitest'
import * as z from 'zod'
import * as z3 from 'zod/v3'
import { McpElicitationError } from '../../../../src/runtime/server/elicitation/error'
import { parseFormAnswer, toFormSchema, type FormOutput } from '../../../../src/runtime/server/elicitation/schema'
import { findSensitiveTerm } from '../../../../src/runtime/server/elicitation/schema/sensitive'
import { expectRefusal, expectSpecValid, validators } from '../../../utils/spec-forms'

it('the strict spec validators reject off-spec keywords (sanity check of the harness)', () => {
  expect(validators.map(v => v.revision)).toEqual(['2025-11-25', '2026-07-28'])
  for (const { revision, field, root } of validators) {
    expect(field({ type: 'string', format: 'email' }), revision).toBe(true)
    for (const bad of [{ type: 'string', pattern: 'x' }, { type: 'number', exclusiveMinimum: 0 }, { type: 'string', format: 'uuid' }, { type: 'string', const: 'a' }, { type: 'object', properties: {} }]) {
      expect(field(bad), `${revision} ${JSON.stringify(bad)}`).toBe(false)
    }
    expect(root({ type: 'object', properties: {}, additionalProperties: false }), revision).toBe(false)
  }
})

const titled = z.union([z.literal('a').meta({ title: 'Alpha' }), z.literal('b').describe('Beta'), z.literal('c')])
enum Plan { Free = 'free', Pro = 'pro' }

describe('toFormSchema: allowed constructs', () => {
  const cases: [string, z.ZodType, object, boolean?][] = [
    ['plain string', z.string(), { type: 'string' }],
    ['labelled string', z.string().min(2).max(40).describe('Full name').meta({ title: 'Name' }), { type: 'string', title: 'Name', description: 'Full name', minLength: 2, maxLength: 40 }],
    ['meta description', z.string().meta({ description: 'From meta' }), { type: 'string', description: 'From meta' }],
    ['exact length', z.string().length(5), { type: 'string', minLength: 5, maxLength: 5 }],
    ['z.email()', z.email(), { type: 'string', format: 'email' }],
    ['z.string().email()', z.string().email(), { type: 'string', format: 'email' }],
    ['z.url()', z.url(), { type: 'string', format: 'uri' }],
    ['z.iso.date()', z.iso.date(), { type: 'string', format: 'date' }],
    ['z.iso.datetime()', z.iso.datetime(), { type: 'string', format: 'date-time' }],
    ['local datetime is not date-time', z.iso.datetime({ local: true }), { type: 'string' }],
    ['uuid is a plain string', z.uuid(), { type: 'string' }],
    ['ipv4 is a plain string', z.ipv4(), { type: 'string' }],
    ['regex is a plain string', z.string().regex(/^[A-Z]+$/), { type: 'string' }],
    ['email + regex keeps email', z.email().regex(/@acme\.com$/), { type: 'string', format: 'email' }],
    ['refine keeps the base type', z.string().min(1).refine(s => s !== 'x'), { type: 'string', minLength: 1 }],
    ['transform: wire is the input', z.string().transform(s => s.length), { type: 'string' }],
    ['template literal', z.templateLiteral([z.number(), 'px']), { type: 'string' }],
    ['string default', z.string().default('hi'), { type: 'string', default: 'hi' }, false],
    ['optional + describe', z.string().optional().describe('Notes'), { type: 'string', description: 'Notes' }, false],
    ['number', z.number().min(0).max(10.5), { type: 'number', minimum: 0, maximum: 10.5 }],
    ['int without safe bounds', z.number().int(), { type: 'integer' }],
    ['z.int()', z.int(), { type: 'integer' }],
    ['int exclusive → inclusive', z.number().int().gt(0).lt(10), { type: 'integer', minimum: 1, maximum: 9 }],
    ['int positive', z.int().positive(), { type: 'integer', minimum: 1 }],
    ['number exclusive dropped', z.number().positive().lt(5), { type: 'number' }],
    ['int32 keeps its range', z.int32(), { type: 'integer', minimum: -2147483648, maximum: 2147483647 }],
    ['coerce number with default', z.coerce.number().default(3), { type: 'number', default: 3 }, false],
    ['boolean default', z.boolean().default(false), { type: 'boolean', default: false }, false],
    ['enum', z.enum(['a', 'b']), { type: 'string', enum: ['a', 'b'] }],
    ['enum default', z.enum(['a', 'b']).default('b'), { type: 'string', enum: ['a', 'b'], default: 'b' }, false],
    ['string TS enum', z.enum(Plan), { type: 'string', enum: ['free', 'pro'] }],
    ['single literal', z.literal('yes'), { type: 'string', enum: ['yes'] }],
    ['titled union', titled, { type: 'string', oneOf: [{ const: 'a', title: 'Alpha' }, { const: 'b', title: 'Beta' }, { const: 'c', title: 'c' }] }],
    ['titled union default', titled.default('c'), { type: 'string', oneOf: [{ const: 'a', title: 'Alpha' }, { const: 'b', title: 'Beta' }, { const: 'c', title: 'c' }], default: 'c' }, false],
    ['legacy enumNames', titled.meta({ enumNames: true, title: 'Pick' }), { type: 'string', title: 'Pick', enum: ['a', 'b', 'c'], enumNames: ['Alpha', 'Beta', 'c'] }],
    ['multi select', z.array(z.enum(['x', 'y'])).min(1).max(2), { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['x', 'y'] } }],
    ['multi select default', z.array(z.enum(['x', 'y'])).default(['x']), { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, default: ['x'] }, false],
    ['titled multi select', z.array(titled).nonempty(), { type: 'array', minItems: 1, items: { anyOf: [{ const: 'a', title: 'Alpha' }, { const: 'b', title: 'Beta' }, { const: 'c', title: 'c' }] } }],
    ['default of a transform is not sent', z.string().transform(Number).default(5), { type: 'string' }, false],
    ['codec: wire is the input', z.codec(z.iso.datetime(), z.date(), { decode: s => new Date(s), encode: d => d.toISOString() }), { type: 'string', format: 'date-time' }],
  ]
  it.each(cases)('%s', (_name, field, expected, required = true) => {
    const schema = toFormSchema({ field })
    expect(schema.properties.field).toStrictEqual(expected)
    expect(schema.required).toStrictEqual(required ? ['field'] : undefined)
    expectSpecValid(schema)
  })

  it('builds the root exactly, omitting an empty required list', () => {
    const schema = toFormSchema({ channel: z.enum(['a', 'b']), notify: z.boolean().default(true), note: z.string().optional() })
    expect(schema).toStrictEqual({ type: 'object', properties: { channel: { type: 'string', enum: ['a', 'b'] }, notify: { type: 'boolean', default: true }, note: { type: 'string' } }, required: ['channel'] })
    expect(toFormSchema({ note: z.string().optional() })).toStrictEqual({ type: 'object', properties: { note: { type: 'string' } } })
  })

  it('types the parsed answer of a shape', () => {
    const shape = { channel: z.enum(['a', 'b']), notify: z.boolean().default(true) }
    expectTypeOf<FormOutput<typeof shape>>().toEqualTypeOf<{ channel: 'a' | 'b'; notify: boolean }>()
    const verdict = parseFormAnswer(shape, { channel: 'b' })
    expect(verdict).toStrictEqual({ ok: true, value: { channel: 'b', notify: true } })
  })

  it('accepts a z.object by reading its shape', () => {
    expect(toFormSchema(z.object({ age: z.int().min(0) }))).toStrictEqual({ type: 'object', properties: { age: { type: 'integer', minimum: 0 } }, required: ['age'] })
  })
})

describe('toFormSchema: refusals name the field and the alternative', () => {
  const self: z.ZodType = z.lazy(() => self)
  const cases: [string, unknown, ...string[]][] = [
    ['nested object', z.object({ city: z.string() }), 'Flatten', 'several forms'],
    ['array of numbers', z.array(z.number()), 'z.array(z.enum([...]))', 'comma-separated'],
    ['array of strings', z.array(z.string()), 'z.array(z.enum([...]))'],
    ['record', z.record(z.string(), z.string()), 'one field per key'],
    ['map', z.map(z.string(), z.string()), 'one field per key'],
    ['set', z.set(z.enum(['a'])), 'z.array(z.enum([...]))'],
    ['tuple', z.tuple([z.string()]), 'one field per position'],
    ['mixed union', z.union([z.string(), z.number()]), 'z.enum([...])', 'z.literal'],
    ['discriminated union', z.discriminatedUnion('k', [z.object({ k: z.literal('a') })]), 'z.enum([...])'],
    ['intersection', z.intersection(z.object({ a: z.string() }), z.object({ b: z.string() })), 'Flatten'],
    ['date', z.date(), 'z.iso.date()', 'z.iso.datetime()'],
    ['nullable', z.string().nullable(), '.optional()'],
    ['nullish', z.string().nullish(), '.optional()'],
    ['any', z.any(), 'z.string()'],
    ['unknown', z.unknown(), 'z.string()'],
    ['bigint', z.bigint(), 'z.number().int()'],
    ['numeric TS enum', z.enum({ A: 0, B: 1 }), 'string values'],
    ['number literal', z.literal(1), 'z.boolean()'],
    ['boolean literal union', z.union([z.literal(true), z.literal(false)]), 'z.boolean()'],
    ['empty enum', z.enum([]), 'at least one'],
    ['preprocess', z.preprocess(v => v, z.string()), 'transform after it'],
    ['custom', z.custom<string>(), 'z.custom()', 'z.string()'],
    ['self-referencing lazy', self, 'nest too deeply'],
    ['enumNames on a multi-select', z.array(titled).meta({ enumNames: true }), 'single selects only'],
    ['not a zod schema', 'string', 'Zod schema'],
  ]
  it.each(cases)('%s', (_name, field, ...snippets) => expectRefusal({ field }, 'field', ...snippets))

  it('refuses an empty shape and non-shapes', () => {
    expectRefusal({}, undefined, 'no fields')
    for (const bad of [null, 'x', 42, [z.string()], z.string(), z3.string()]) expectRefusal(bad, undefined, 'raw Zod shape', 'z.object')
  })

  it('refuses mixing zod v3 and v4 in one form', () => {
    expectRefusal({ a: z.string(), b: z.string(), c: z3.string() }, 'c', 'one Zod version per form')
  })
})

describe('sensitive fields', () => {
  it.each(['password', 'userPassword', 'new_password', 'passwd', 'passcode', 'passphrase', 'pinCode', 'pin_code', 'secret', 'clientSecret', 'client_secret', 'apiKey', 'api_key', 'APIKey', 'apikey', 'x-api-key', 'token', 'githubToken', 'access_token', 'authtoken', 'accessKey', 'privateKey', 'credentials', 'cardNumber', 'card_number', 'creditCard', 'cvv', 'CVC', 'iban', 'ssn', 'socialSecurityNumber', 'Your card number', 'Paste your API key'])('detects %s', (text) => {
    expect(findSensitiveTerm(text)).toBeDefined()
  })

  it.each(['tokenizer', 'secretary', 'secretive', 'maxTokens', 'tokenLimit', 'passwordLength', 'name', 'keyboard', 'monkey', 'pineapple', 'spin code', 'cardinal', 'privacy', 'accessibility', 'apiVersion', 'keyTakeaways'])('ignores %s', (text) => {
    expect(findSensitiveTerm(text)).toBeUndefined()
  })

  it('refuses by name, title or description, pointing to elicit.url(), unless allowSensitive', () => {
    expectRefusal({ apiKey: z.string() }, 'apiKey', 'elicit.url()', 'allowSensitive')
    expectRefusal({ value: z.string().meta({ title: 'Your password' }) }, 'value', 'its title', 'elicit.url()')
    expectRefusal({ value: z.string().describe('Paste your GitHub token') }, 'value', 'its description')
    expectRefusal({ note: z3.string().describe('credit card number') }, 'note', 'elicit.url()')
    expect(toFormSchema({ apiKey: z.string() }, { allowSensitive: true }).properties.apiKey).toStrictEqual({ type: 'string' })
  })
})

describe('zod v3 shapes', () => {
  it('follow the same rules', () => {
    const schema = toFormSchema({
      email: z3.string().email().min(3).describe('Work email'),
      count: z3.number().int().positive().safe(),
      ratio: z3.number().gt(0).max(1),
      plan: z3.enum(['free', 'pro']).default('free'),
      size: z3.union([z3.literal('s').describe('Small'), z3.literal('l')]),
      tags: z3.array(z3.enum(['a', 'b'])).nonempty().optional(),
      agree: z3.boolean().refine(v => v),
      born: z3.string().date(),
    })
    expect(schema).toStrictEqual({
      type: 'object',
      properties: {
        email: { type: 'string', description: 'Work email', minLength: 3, format: 'email' },
        count: { type: 'integer', minimum: 1 },
        ratio: { type: 'number', maximum: 1 },
        plan: { type: 'string', enum: ['free', 'pro'], default: 'free' },
        size: { type: 'string', oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'l' }] },
        tags: { type: 'array', minItems: 1, items: { type: 'string', enum: ['a', 'b'] } },
        agree: { type: 'boolean' },
        born: { type: 'string', format: 'date' },
      },
      required: ['email', 'count', 'ratio', 'size', 'agree', 'born'],
    })
    expectSpecValid(schema)
    expect(toFormSchema(z3.object({ a: z3.string() }))).toStrictEqual({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] })
  })

  it.each([
    ['nested object', z3.object({ a: z3.string() }), 'Flatten'],
    ['array of numbers', z3.array(z3.number()), 'comma-separated'],
    ['nullable', z3.string().nullable(), '.optional()'],
    ['date', z3.date(), 'z.iso.date()'],
    ['discriminated union', z3.discriminatedUnion('k', [z3.object({ k: z3.literal('a') })]), 'z.enum([...])'],
    ['preprocess', z3.preprocess(v => v, z3.string()), 'transform after it'],
    ['numeric native enum', z3.nativeEnum({ A: 0, B: 1 }), 'string values'],
  ])('refuses %s', (_name, field, snippet) => expectRefusal({ field }, 'field', snippet))
})

describe('cache', () => {
  const NAME = z.string().min(1)
  const AGE = z.int().min(0)

  it('returns the same frozen object for the same or an equal inline shape', () => {
    const shape = { name: NAME, age: AGE }
    const first = toFormSchema(shape)
    expect(toFormSchema(shape)).toBe(first)
    expect(toFormSchema({ name: NAME, age: AGE })).toBe(first)
    expect(toFormSchema({ name: NAME, age: AGE }, { allowSensitive: true })).toStrictEqual(first)
    expect(Object.isFrozen(first) && Object.isFrozen(first.properties) && Object.isFrozen(first.properties.name) && Object.isFrozen(first.required)).toBe(true)
    expect(toFormSchema({ age: AGE, name: NAME })).not.toBe(first) // field order is part of the form
  })

  it('gives equal results for fully inline shapes', () => {
    const make = () => toFormSchema({ pick: z.array(z.enum(['a', 'b'])).max(1), n: z.number().default(1) })
    expect(make()).toStrictEqual(make())
    expect(Object.isFrozen((make().properties.pick as { items: object }).items)).toBe(true)
  })
})

describe('property: random shapes convert to a spec-valid schema or refuse cleanly', () => {
  const bound = fc.option(fc.integer({ min: -5, max: 50 }), { nil: undefined })
  const text = fc.option(fc.string({ maxLength: 16 }), { nil: undefined })
  const allowed: fc.Arbitrary<[z.ZodType, unknown]>[] = [
    fc.tuple(bound, bound, fc.constantFrom('plain', 'email', 'url', 'date', 'uuid', 'regex')).map(([min, max, kind]): [z.ZodType, unknown] => {
      let s = kind === 'email' ? z.email() : kind === 'url' ? z.url() : kind === 'date' ? z.iso.date() : kind === 'uuid' ? z.uuid() : kind === 'regex' ? z.string().regex(/a/) : z.string()
      if (min !== undefined && min >= 0) s = s.min(min)
      if (max !== undefined && max >= 0) s = s.max(max)
      return [s, 'x']
    }),
    fc.tuple(bound, bound, fc.boolean(), fc.boolean()).map(([min, max, int, exclusive]): [z.ZodType, unknown] => {
      let n = int ? z.number().int() : z.number()
      if (min !== undefined) n = exclusive ? n.gt(min) : n.min(min)
      if (max !== undefined) n = exclusive ? n.lt(max) : n.max(max)
      return [n, 7]
    }),
    fc.constant<[z.ZodType, unknown]>([z.boolean(), true]),
    fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }).map((values): [z.ZodType, unknown] => [z.enum(values as [string, ...string[]]), values[0]]),
    fc.uniqueArray(fc.tuple(fc.string({ minLength: 1, maxLength: 4 }), text), { minLength: 1, maxLength: 4, selector: ([v]) => v }).map((options): [z.ZodType, unknown] => {
      const literals = options.map(([v, title]) => (title === undefined ? z.literal(v) : z.literal(v).meta({ title })))
      return [z.union(literals), options[0]?.[0]]
    }),
    fc.tuple(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }), bound).map(([values, min]): [z.ZodType, unknown] => {
      const a = z.array(z.enum(values as [string, ...string[]]))
      return [min !== undefined && min >= 0 ? a.min(min) : a, [values[0]]]
    }),
  ]
  const refused: fc.Arbitrary<[z.ZodType, unknown]> = fc.constantFrom<[z.ZodType, unknown]>(
    [z.object({ a: z.string() }), {}], [z.array(z.number()), []], [z.record(z.string(), z.number()), {}], [z.tuple([z.string()]), ['a']],
    [z.union([z.string(), z.number()]), 'a'], [z.date(), new Date(0)], [z.string().nullable(), null], [z.any(), 1], [z.unknown(), 1],
    [z.bigint(), 1n], [z.literal(1), 1], [z.preprocess(v => v, z.number()), 1],
  )
  const field = fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.oneof(...allowed) }, { weight: 1, arbitrary: refused }), fc.constantFrom('none', 'optional', 'default'), text, text).map(([[schema, sample], wrap, description, title]) => {
    let s: z.ZodType = schema
    if (description !== undefined) s = s.describe(description)
    if (title !== undefined) s = s.meta({ title })
    return wrap === 'optional' ? s.optional() : wrap === 'default' ? s.default(sample as never) : s
  })
  const names = fc.oneof(fc.constantFrom('name', 'age', 'password', 'notes', 'apiKey', 'plan'), fc.string({ maxLength: 10 }))

  it('never throws anything but invalid-schema', () => {
    const seen = { converted: 0, refused: 0 }
    fc.assert(fc.property(fc.dictionary(names, field, { maxKeys: 5 }), fc.boolean(), (shape, allowSensitive) => {
      try {
        expectSpecValid(toFormSchema(shape, { allowSensitive }))
        seen.converted++
      }
      catch (error) {
        if (!(error instanceof McpElicitationError)) throw error
        expect(error.code).toBe('invalid-schema')
        seen.refused++
      }
    }), { numRuns: 300 })
    // Both outcomes must actually occur, or the property proves nothing.
    expect(seen.converted).toBeGreaterThan(30)
    expect(seen.refused).toBeGreaterThan(30)
  })
})
