// The playground's scripted model calls any tool with arguments made from its inputSchema: each
// is one the tool's own schema (as its listing gives it) accepts.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { sampleArguments, sampleOf } from '../../../playground/server/utils/sample-arguments'

describe('sample arguments from a tool\'s inputSchema', () => {
  it('fills every required field with a value the schema accepts, and leaves optional ones out', () => {
    const shape = z.object({
      city: z.string().min(2),
      code: z.string().min(20),
      travellers: z.number().int().min(2),
      ratio: z.number().gt(0.5),
      mode: z.enum(['train', 'bike']),
      start: z.iso.date(),
      at: z.iso.datetime(),
      mail: z.email(),
      pets: z.boolean(),
      tags: z.array(z.string()).min(1),
      kind: z.literal('trip'),
      either: z.union([z.string(), z.number()]),
      note: z.string().optional(),
      seats: z.number().default(3),
    })
    const schema = z.toJSONSchema(shape, { io: 'input' })
    const args = sampleArguments(schema)
    expect(Object.keys(args).sort()).toEqual(['at', 'city', 'code', 'either', 'kind', 'mail', 'mode', 'pets', 'ratio', 'start', 'tags', 'travellers'])
    expect(args).toMatchObject({ city: 'sample city', travellers: 2, mode: 'train', start: '2026-12-24', pets: false, kind: 'trip', tags: ['sample tags'] })
    expect(shape.parse(args)).toMatchObject({ seats: 3 })
  })

  it('gives an empty object for a tool with no arguments or no schema', () => {
    expect(sampleArguments({ type: 'object', properties: {} })).toEqual({})
    expect(sampleArguments(undefined)).toEqual({})
    expect(sampleArguments({ type: 'string' })).toEqual({})
  })

  it('prefers a default, a const, an example or the first choice', () => {
    expect(sampleOf({ type: 'string', default: 'x', enum: ['a'] })).toBe('x')
    expect(sampleOf({ type: 'string', examples: ['e'] })).toBe('e')
    expect(sampleOf({ type: ['null', 'integer'] })).toBe(1)
  })
})
