import { type } from 'arktype'
import * as v from 'valibot'
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { defineMcpPrompt } from '../../../../src/runtime/server/mcp/definitions/definitions'
import { promptArguments } from '../../../../src/runtime/server/mcp/definitions/prompt-arguments'

// The same prompt arguments in three ways: a file to review (described), an optional focus.
const valibot = toStandardJsonSchema(v.object({ file: v.pipe(v.string(), v.minLength(1), v.description('The file')), focus: v.optional(v.picklist(['naming', 'bugs'])) }))
const arktype = type({ 'file': type('string > 0').describe('The file'), 'focus?': '"naming" | "bugs"' })
const zod = { file: z.string().min(1).describe('The file'), focus: z.enum(['naming', 'bugs']).optional() }

describe.each([
  { library: 'Valibot', schema: valibot },
  { library: 'ArkType', schema: arktype },
  { library: 'a Zod shape', schema: zod },
])('prompt arguments from $library', ({ schema }) => {
  it('are listed with their description and whether they are required', () => {
    expect(promptArguments(schema, 'The prompt "review"').listed).toEqual([
      { name: 'file', description: 'The file', required: true },
      { name: 'focus', required: false },
    ])
  })

  it('are checked by the library, each problem naming its argument', async () => {
    const { check } = promptArguments(schema, 'The prompt "review"')
    expect(await check({ file: 'a.ts', focus: 'bugs' })).toEqual({ ok: true, data: { file: 'a.ts', focus: 'bugs' } })
    const refused = await check({ file: '', focus: 'style' })
    expect(refused.ok).toBe(false)
    if (!refused.ok) for (const name of ['file', 'focus']) expect(refused.problem).toMatch(new RegExp(`(^|; )${name}: `))
  })
})

describe('prompt arguments refused at startup', () => {
  it('names the prompt, the argument and the way out for a property that is not a string', () => {
    expect(() => promptArguments(type({ count: 'number' }), 'The prompt "p" (server/mcp/prompts/p.ts)'))
      .toThrow('The prompt "p" (server/mcp/prompts/p.ts): its argument "count" (arktype) is not a string (its JSON Schema is {"type":"number"}). Prompt arguments are strings on the wire: declare a string and convert it in the handler.')
    expect(() => promptArguments(toStandardJsonSchema(v.object({ tags: v.array(v.string()) })), 'The prompt "p"')).toThrow(/its argument "tags" \(valibot\) is not a string/)
  })

  it('asks for the converter when a library has none', () => {
    expect(() => promptArguments(v.object({ file: v.string() }), 'The prompt "p"')).toThrow(/wrap it in toStandardJsonSchema\(\) from @valibot\/to-json-schema/)
  })
})

describe('prompt handler types', () => {
  it('are the library\'s inferred output, and `complete` knows the argument names', () => {
    const defined = defineMcpPrompt({
      arguments: valibot,
      complete: { file: () => ['a.ts'] },
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ file: string, focus?: 'naming' | 'bugs' | undefined }>()
        return args.file
      },
    })
    defineMcpPrompt({
      arguments: arktype,
      // @ts-expect-error: no such argument
      complete: { nope: () => [] },
      handler: args => args.file,
    })
    // @ts-expect-error: prompt arguments are strings, so a numeric property is refused by the types too
    defineMcpPrompt({ arguments: type({ count: 'number' }), handler: () => '' })
    // The assertions above are types, checked by typecheck.test.ts; at run time the definition is the one written.
    expect(defined.arguments).toBe(valibot)
  })
})
