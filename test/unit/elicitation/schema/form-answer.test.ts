import fc from 'fast-check'
import { describe, expect, expectTypeOf, it } from 'vitest'
import * as z from 'zod'
import * as z3 from 'zod/v3'
import { McpElicitationError } from '../../../../src/runtime/server/elicitation/error'
import { formAnswerError, parseFormAnswer, type FormOutput } from '../../../../src/runtime/server/elicitation/schema'

const shape = {
  age: z.number().int().min(0).max(130),
  color: z.enum(['red', 'green']),
  size: z.union([z.literal('s').meta({ title: 'Small' }), z.literal('l')]),
  tags: z.array(z.enum(['a', 'b'])).max(2).optional(),
  notify: z.boolean().default(true),
  code: z.uuid().optional(),
  ratio: z.number().gt(0).optional(),
}

describe('parseFormAnswer', () => {
  it('applies defaults and types the value', () => {
    const verdict = parseFormAnswer({ channel: z.enum(['a', 'b']), notify: z.boolean().default(true) }, { channel: 'a' })
    expect(verdict).toStrictEqual({ ok: true, value: { channel: 'a', notify: true } })
    if (verdict.ok) expectTypeOf(verdict.value).toEqualTypeOf<{ channel: 'a' | 'b'; notify: boolean }>()
  })

  it('has a FormOutput type for v4, v3 and z.object shapes', () => {
    const v4 = { channel: z.enum(['a', 'b']), notify: z.boolean().default(true) }
    expectTypeOf<FormOutput<typeof v4>>().toEqualTypeOf<{ channel: 'a' | 'b'; notify: boolean }>()
    expectTypeOf<FormOutput<z.ZodObject<typeof v4>>>().toEqualTypeOf<{ channel: 'a' | 'b'; notify: boolean }>()
    const v3 = { n: z3.number(), s: z3.string().optional() }
    expectTypeOf<FormOutput<typeof v3>>().toEqualTypeOf<{ n: number; s?: string | undefined }>()
  })

  it('names each field and what was expected', () => {
    const verdict = parseFormAnswer(shape, { age: 'abc', color: 'blue', size: 'm', tags: ['a', 'z'], extra: 1, ratio: 0, code: 'nope' })
    expect(verdict.ok).toBe(false)
    const issues = verdict.ok ? [] : verdict.issues
    expect(issues).toContain(`unexpected field 'extra'`)
    expect(issues).toContain(`"age": expected a number, received "abc"`)
    expect(issues).toContain(`"color": expected one of "red", "green", received "blue"`)
    expect(issues).toContain(`"size": expected one of "s", "l", received "m"`)
    expect(issues).toContain(`"tags"[1]: expected one of "a", "b", received "z"`)
    expect(issues.some(i => i.startsWith('"ratio":') && i.endsWith('received 0'))).toBe(true) // exclusive bound, enforced here
    expect(issues.some(i => i.startsWith('"code":'))).toBe(true) // uuid, enforced here
  })

  it('reports missing fields, non-form values and non-object answers', () => {
    expect(parseFormAnswer(shape, { age: 1, color: { a: 1 }, size: 's' })).toStrictEqual({ ok: false, issues: ['"color": expected a string, number, boolean or list of strings, received {"a":1}'] })
    expect(parseFormAnswer(shape, { color: 'red', size: 's' })).toStrictEqual({ ok: false, issues: ['"age": missing, expected a number'] })
    expect(parseFormAnswer(shape, null)).toStrictEqual({ ok: false, issues: ['the answer must be an object of field values, received null'] })
  })

  it('keeps custom refine messages and survives throwing or async refinements', () => {
    const refined = { n: z.number().refine(v => v % 2 === 0, 'must be even') }
    expect(parseFormAnswer(refined, { n: 3 })).toStrictEqual({ ok: false, issues: ['"n": must be even, received 3'] })
    const throwing = { n: z.number().refine(() => { throw new Error('boom') }) }
    expect(parseFormAnswer(throwing, { n: 1 })).toStrictEqual({ ok: false, issues: ['the answer could not be validated: boom'] })
    const asynchronous = { n: z.number().refine(async () => true) }
    expect(parseFormAnswer(asynchronous, { n: 1 }).ok).toBe(false)
  })

  it('validates zod v3 and z.object shapes (object refinements included)', () => {
    expect(parseFormAnswer({ a: z3.number().int(), e: z3.enum(['x']).default('x') }, { a: 2 })).toStrictEqual({ ok: true, value: { a: 2, e: 'x' } })
    expect(parseFormAnswer({ a: z3.number() }, { a: 'x', b: 1 })).toStrictEqual({ ok: false, issues: [`unexpected field 'b'`, '"a": expected a number, received "x"'] })
    const range = z.object({ from: z.number(), to: z.number() }).refine(r => r.from <= r.to, { message: 'from must not exceed to', path: ['to'] })
    expect(parseFormAnswer(range, { from: 2, to: 1 })).toStrictEqual({ ok: false, issues: ['"to": from must not exceed to, received 1'] })
    expect(parseFormAnswer(range, { from: 1, to: 2 })).toStrictEqual({ ok: true, value: { from: 1, to: 2 } })
  })

  it('accepts every valid answer (property)', () => {
    const answer = fc.record({ age: fc.integer({ min: 0, max: 130 }), color: fc.constantFrom('red', 'green'), size: fc.constantFrom('s', 'l'), tags: fc.option(fc.subarray(['a', 'b']), { nil: undefined }) }, { requiredKeys: ['age', 'color', 'size'] })
    fc.assert(fc.property(answer, (content) => {
      const verdict = parseFormAnswer(shape, content)
      expect(verdict.ok, JSON.stringify(verdict)).toBe(true)
      if (verdict.ok) expect(verdict.value.notify).toBe(true)
    }))
  })

  it('never throws on any JSON content (property)', () => {
    const fields = fc.constantFrom('age', 'color', 'size', 'tags', 'notify', 'code', 'ratio', '__proto__', 'constructor')
    const content = fc.oneof(fc.jsonValue(), fc.object(), fc.dictionary(fc.oneof(fields, fc.string()), fc.jsonValue()))
    const shapes = [shape, { a: z3.string().email(), b: z3.array(z3.enum(['x'])).optional() }, z.object({ n: z.coerce.number() })]
    fc.assert(fc.property(content, fc.constantFrom(...shapes), (value, form) => {
      const verdict = parseFormAnswer(form, value)
      if (verdict.ok) expect(typeof verdict.value).toBe('object')
      else expect(verdict.issues.length > 0 && verdict.issues.every(i => typeof i === 'string' && i.length > 0)).toBe(true)
    }), { numRuns: 500 })
  })
})

describe('formAnswerError', () => {
  it('is an invalid-response error listing the fields and the fix', () => {
    const error = formAnswerError(['"age": expected a number, received "abc"', `unexpected field 'x'`])
    expect(error).toBeInstanceOf(McpElicitationError)
    expect(error.code).toBe('invalid-response')
    expect(error.issues).toStrictEqual(['"age": expected a number, received "abc"', `unexpected field 'x'`])
    expect(error.message).toContain('"age": expected a number')
    expect(error.message).toContain('Ask again')
    expect(error.field).toBeUndefined()
    expect(formAnswerError(['"age": expected a number, received "abc"']).field).toBe('age')
  })
})

describe('parsing a raw shape field by field', () => {
  const shape = {
    name: z.string().min(2),
    age: z.number().int().min(0).optional(),
    plan: z.enum(['free', 'pro']),
    tags: z.array(z.enum(['a', 'b'])).optional(),
    notify: z.boolean().default(true),
    email: z.email().optional(),
    slug: z.string().regex(/^[a-z]+$/).refine(v => v !== 'admin', 'reserved').optional(),
    code: z.string().default('x').optional(),
  }
  const value = fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -3, max: 200 }), fc.double({ noNaN: true }), fc.boolean(),
    fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 3 }), fc.constantFrom('free', 'pro', 'ada', 'admin', 'a@b.co'))

  it('answers exactly as z.object(shape) would, for any content (property)', () => {
    fc.assert(fc.property(fc.dictionary(fc.constantFrom(...Object.keys(shape)), value), (content) => {
      expect(parseFormAnswer(shape, content)).toEqual(parseFormAnswer(z.object(shape), content))
    }), { numRuns: 400 })
  })

  it('answers exactly as z3.object(shape) would for a zod/v3 shape, for any content (property)', () => {
    const shape3 = {
      name: z3.string().min(2),
      age: z3.number().int().min(0).optional(),
      plan: z3.enum(['free', 'pro']),
      tags: z3.array(z3.enum(['a', 'b'])).optional(),
      notify: z3.boolean().default(true),
    }
    fc.assert(fc.property(fc.dictionary(fc.constantFrom(...Object.keys(shape3)), value), (content) => {
      expect(parseFormAnswer(shape3, content)).toEqual(parseFormAnswer(z3.object(shape3), content))
    }), { numRuns: 300 })
  })
})
