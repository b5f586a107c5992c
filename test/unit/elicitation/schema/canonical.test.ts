import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { z as z3 } from 'zod/v3'
import { parseFormAnswer, readForm, toFormSchema, type FormShape } from '../../../../src/runtime/server/elicitation/schema'

// Inline shapes are new objects on every call; reading them into one node (readForm) lets equal
// ones share one: the node's shape is made of the first fields seen with each structure.
const canonicalShape = <S extends FormShape>(shape: S): S => readForm(shape).shape

const release = () => ({
  name: z.string().min(2).meta({ title: 'Name' }),
  age: z.number().int().min(0).optional(),
  plan: z.enum(['free', 'pro']),
  tags: z.array(z.enum(['a', 'b', 'c'])).optional(),
  subscribe: z.boolean().optional(),
  email: z.email(),
})

describe('readForm: equal inline shapes share one node', () => {
  it('maps structurally equal inline shapes to the first one, so conversion is shared', () => {
    const first = canonicalShape(release())
    const second = canonicalShape(release())
    expect(second).toBe(first)
    expect(toFormSchema(second)).toBe(toFormSchema(first))
  })

  it.each([
    ['a check', () => ({ x: z.string().min(2) }), () => ({ x: z.string().min(3) })],
    ['metadata', () => ({ x: z.string().meta({ title: 'A' }) }), () => ({ x: z.string().meta({ title: 'B' }) })],
    ['a description', () => ({ x: z.string().describe('A') }), () => ({ x: z.string().describe('B') })],
    ['enum members', () => ({ x: z.enum(['a', 'b']) }), () => ({ x: z.enum(['a', 'c']) })],
    ['a regex', () => ({ x: z.string().regex(/a/) }), () => ({ x: z.string().regex(/a/i) })],
    ['optionality', () => ({ x: z.string() }), () => ({ x: z.string().optional() })],
    ['field order', () => ({ x: z.string(), y: z.number() }), () => ({ y: z.number(), x: z.string() })],
    ['a field name', () => ({ x: z.string() }), () => ({ y: z.string() })],
  ])('keeps shapes apart that differ in %s', (_what, one, other) => {
    const a = canonicalShape(one())
    const b = canonicalShape(other())
    expect(b).not.toBe(a)
    expect(canonicalShape(one())).toBe(a)
  })

  it('never shares a shape whose inline refinement may capture per-call values', () => {
    const askFor = (taken: string) => canonicalShape({ slug: z.string().refine(v => v !== taken, 'taken') })
    const forAda = askFor('ada')
    const forBob = askFor('bob')
    expect(forBob).not.toBe(forAda)
    expect(parseFormAnswer(forAda, { slug: 'ada' }).ok).toBe(false)
    expect(parseFormAnswer(forBob, { slug: 'ada' }).ok).toBe(true)
  })

  it('never shares a .superRefine() field: its function lives outside the definition', () => {
    const askFor = (taken: string) => canonicalShape({
      slug: z.string().superRefine((v, ctx) => { if (v === taken) ctx.addIssue({ code: 'custom', message: 'taken' }) }),
    })
    const forAda = askFor('ada')
    const forBob = askFor('bob')
    expect(forBob.slug).not.toBe(forAda.slug)
    expect(parseFormAnswer(forAda, { slug: 'ada' }).ok).toBe(false)
    expect(parseFormAnswer(forBob, { slug: 'ada' }).ok).toBe(true)
  })

  it('shares a .default() field by the value its default has when asked, read once per ask', () => {
    let calls = 0
    const make = (value: string) => ({ name: z.string(), plan: z.string().default(() => { calls++; return value }) })
    const first = canonicalShape(make('free'))
    const second = canonicalShape(make('pro'))
    const third = canonicalShape(make('free'))
    expect(calls).toBe(3)
    expect(second.name).toBe(first.name)
    expect(second.plan).not.toBe(first.plan)
    expect(third).toBe(first)
    expect(parseFormAnswer(second, { name: 'x' })).toEqual({ ok: true, value: { name: 'x', plan: 'pro' } })
    expect(parseFormAnswer(first, { name: 'x' })).toEqual({ ok: true, value: { name: 'x', plan: 'free' } })
    // The shared field keeps the asked value: later reads of the caller's function change nothing.
    expect(calls).toBe(3)
  })

  it('gives an answer that leaves a default out the value the person was shown, not a later one', () => {
    let plan = 'free'
    const shape = canonicalShape({ plan: z.string().default(() => plan) })
    expect(toFormSchema(shape).properties.plan).toMatchObject({ default: 'free' })
    plan = 'pro'
    expect(parseFormAnswer(shape, {})).toEqual({ ok: true, value: { plan: 'free' } })
  })

  it('shares a constant .default() with its metadata; never one with checks, an id or a non-JSON value', () => {
    const a = canonicalShape({ notify: z.boolean().default(true).meta({ title: 'Notify' }) })
    const b = canonicalShape({ notify: z.boolean().default(true).meta({ title: 'Notify' }) })
    expect(b).toBe(a)
    expect(toFormSchema(a).properties.notify).toEqual({ type: 'boolean', title: 'Notify', default: true })
    expect(canonicalShape({ notify: z.boolean().default(false).meta({ title: 'Notify' }) })).not.toBe(a)
    const list = canonicalShape({ tags: z.array(z.enum(['a', 'b'])).default(['a']) })
    const value = parseFormAnswer(list, {})
    expect(value).toEqual({ ok: true, value: { tags: ['a'] } })
    if (value.ok) value.value.tags.push('b')
    expect(parseFormAnswer(list, {})).toEqual({ ok: true, value: { tags: ['a'] } })

    const checked = () => ({ n: z.number().default(1).refine(v => v > 0) })
    expect(canonicalShape(checked()).n).not.toBe(canonicalShape(checked()).n)
    const withId = () => ({ n: z.number().default(1).meta({ id: 'count-field' }) })
    expect(() => canonicalShape(withId())).not.toThrow()
    const dated = () => ({ when: z.date().default(() => new Date(0)) })
    expect(canonicalShape(dated()).when).not.toBe(canonicalShape(dated()).when)
  })

  it('returns the same result for the same shape object, without fingerprinting it again', () => {
    const shape = { name: z.string(), notify: z.boolean().default(true) }
    expect(canonicalShape(shape)).toBe(canonicalShape(shape))
    expect(Object.isFrozen(canonicalShape(shape))).toBe(true)
  })

  it('shares a refinement by function identity; an inline error function keeps it apart', () => {
    const isSlug = (v: string) => /^[a-z]+$/.test(v)
    expect(canonicalShape({ slug: z.string().refine(isSlug, { error: () => 'lowercase only' }) }).slug)
      .not.toBe(canonicalShape({ slug: z.string().refine(isSlug, { error: () => 'lowercase only' }) }).slug)
    expect(canonicalShape({ slug: z.string().refine(isSlug) })).toBe(canonicalShape({ slug: z.string().refine(isSlug) }))
  })

  it('keeps z.object schemas and Zod 3 fields as they are, and refuses a malformed shape with its usual error', () => {
    const object = z.object({ x: z.string() })
    const zod3 = { x: z3.string() }
    const malformed = { x: 'not a schema' }
    expect(canonicalShape(object)).toBe(object)
    expect(canonicalShape(zod3)).toEqual(zod3)
    expect(canonicalShape(zod3).x).toBe(zod3.x)
    expect(canonicalShape({ x: z3.string() })).not.toBe(canonicalShape(zod3))
    // @ts-expect-error a non-Zod field: refused with the converter's own message
    expect(() => canonicalShape(malformed)).toThrow('Form field "x": it is not a Zod schema')
    // @ts-expect-error the same message as converting it
    expect(() => toFormSchema(malformed)).toThrow('Form field "x": it is not a Zod schema')
  })
})
