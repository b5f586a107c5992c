import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { z as z3 } from 'zod/v3'
import { canonicalShape } from '../../src/runtime/server/elicitation/schema-canonical'
import { parseFormAnswer, toFormSchema } from '../../src/runtime/server/elicitation/schema'

// Inline shapes are new objects on every call; canonicalShape lets equal ones share one.

const release = () => ({
  name: z.string().min(2).meta({ title: 'Name' }),
  age: z.number().int().min(0).optional(),
  plan: z.enum(['free', 'pro']),
  tags: z.array(z.enum(['a', 'b', 'c'])).optional(),
  subscribe: z.boolean().optional(),
  email: z.email(),
})

describe('canonicalShape', () => {
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

  it('keeps a .default() field per call (its value may come from a function) and shares the others', () => {
    let calls = 0
    const make = (value: string) => ({ name: z.string(), plan: z.string().default(() => { calls++; return value }) })
    const first = canonicalShape(make('free'))
    const second = canonicalShape(make('pro'))
    expect(second.name).toBe(first.name)
    expect(second.plan).not.toBe(first.plan)
    expect(calls).toBe(0) // the default function is not called to compare shapes
    expect(parseFormAnswer(second, { name: 'x' })).toEqual({ ok: true, value: { name: 'x', plan: 'pro' } })
    expect(parseFormAnswer(first, { name: 'x' })).toEqual({ ok: true, value: { name: 'x', plan: 'free' } })
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

  it('returns z.object schemas, Zod 3 shapes and malformed shapes unchanged', () => {
    const object = z.object({ x: z.string() })
    const zod3 = { x: z3.string() }
    const malformed = { x: 'not a schema' }
    expect(canonicalShape(object)).toBe(object)
    expect(canonicalShape(zod3)).toBe(zod3)
    // @ts-expect-error a non-Zod field: the converter refuses it later, with its own message
    expect(canonicalShape(malformed)).toBe(malformed)
  })
})
