import { type } from 'arktype'
import * as v from 'valibot'
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import * as z3 from 'zod/v3'
import { defineMcpTool } from '../../../../src/runtime/server/mcp/definitions/definitions'
import { createMcpRegistry } from '../../../../src/runtime/server/mcp/definitions/registry'
import type { ErasedTool } from '../../../../src/runtime/server/mcp/definitions/registry'
import { toToolResult } from '../../../../src/runtime/server/mcp/definitions/results'

function registryOf(definition: ErasedTool) {
  return createMcpRegistry({ tools: [{ file: 'server/mcp/tools/t.ts', fallbackName: 't', definition }], resources: [], prompts: [] })
}

// The same arguments in three libraries: a name, an optional count of at least 1, a plan.
const valibot = toStandardJsonSchema(v.object({ name: v.pipe(v.string(), v.minLength(1)), count: v.optional(v.pipe(v.number(), v.minValue(1))), plan: v.picklist(['free', 'pro']) }))
const arktype = type({ 'name': 'string > 0', 'count?': 'number >= 1', 'plan': '"free" | "pro"' })
const zodObject = z.object({ name: z.string().min(1), count: z.number().min(1).optional(), plan: z.enum(['free', 'pro']) })

describe.each([
  { library: 'Valibot', schema: valibot },
  { library: 'ArkType', schema: arktype },
  { library: 'a Zod object', schema: zodObject },
])('a tool\'s inputSchema from $library (Standard Schema + Standard JSON Schema)', ({ schema }) => {
  it('is listed from the library\'s own converter, as a 2020-12 object schema without $schema', () => {
    const listed = registryOf({ inputSchema: schema, handler: () => '' }).lists.tools[0]?.inputSchema
    expect(listed).toMatchObject({ type: 'object', properties: { name: { type: 'string', minLength: 1 }, count: { type: 'number', minimum: 1 }, plan: { enum: expect.arrayContaining(['free', 'pro']) } } })
    expect(listed?.required).toEqual(expect.arrayContaining(['name', 'plan']))
    expect(listed?.required).not.toContain('count')
    expect(listed).not.toHaveProperty('$schema')
  })

  it('checks arguments with the library\'s own validation, naming each field', async () => {
    const check = registryOf({ inputSchema: schema, handler: () => '' }).tools.get('t')!.args
    expect(await check({ name: 'Ada', plan: 'pro' })).toEqual({ ok: true, data: { name: 'Ada', plan: 'pro' } })
    const refused = await check({ name: '', count: 0, plan: 'gold' })
    expect(refused.ok).toBe(false)
    if (refused.ok) return
    for (const field of ['name', 'count', 'plan']) expect(refused.problem).toMatch(new RegExp(`(^|; )${field}: `))
  })
})

describe('Standard Schema refusals at startup', () => {
  it('names the tool and the way out for a bare Valibot schema and a non-object schema', () => {
    expect(() => registryOf({ inputSchema: v.object({ name: v.string() }), handler: () => '' }))
      .toThrow(/The tool "t" \(server\/mcp\/tools\/t\.ts\): its inputSchema \(valibot\) is a Standard Schema without a JSON Schema converter .*wrap it in toStandardJsonSchema\(\) from @valibot\/to-json-schema/)
    expect(() => registryOf({ inputSchema: type('string'), handler: () => '' })).toThrow(/its inputSchema \(arktype\) is not an object schema \(its JSON Schema has type "string"\)/)
    expect(() => registryOf({ inputSchema: z3.object({ name: z3.string() }), handler: () => '' }))
      .toThrow(/its inputSchema \(zod\) is a Standard Schema without a JSON Schema converter .*write it with Zod 4 \(import \{ z \} from "zod"\)/)
  })
})

describe('handler types', () => {
  it('are the library\'s inferred output', () => {
    defineMcpTool({
      inputSchema: valibot,
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ name: string, count?: number | undefined, plan: 'free' | 'pro' }>()
        return args.name
      },
    })
    defineMcpTool({
      inputSchema: arktype,
      handler: (args) => {
        expectTypeOf(args.plan).toEqualTypeOf<'free' | 'pro'>()
        expectTypeOf(args.name).toEqualTypeOf<string>()
        // @ts-expect-error: no such property in the schema
        return args.nickname
      },
    })
    defineMcpTool({
      inputSchema: zodObject,
      handler: (args) => {
        expectTypeOf(args.count).toEqualTypeOf<number | undefined>()
        return args.name
      },
    })
  })
})

describe('a tool\'s outputSchema from a Standard Schema library', () => {
  const result = v.object({ sum: v.number() })
  it('is listed from the converter\'s output side and checks what the handler returns', async () => {
    const registry = registryOf({ outputSchema: toStandardJsonSchema(result), handler: () => ({ sum: 1 }) })
    expect(registry.lists.tools[0]?.outputSchema).toMatchObject({ type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] })
    const check = registry.tools.get('t')!.output!
    expect(await toToolResult({ sum: 3 }, check)).toEqual({ content: [{ type: 'text', text: '{"sum":3}' }], structuredContent: { sum: 3 } })
    expect(await toToolResult({ sum: 'three' }, check)).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^The tool's result does not match its outputSchema \(sum: .*\)\. Fix the handler's return value\.$/) }] })
    const arkCheck = registryOf({ outputSchema: type({ sum: 'number' }), handler: () => ({ sum: 1 }) }).tools.get('t')!.output!
    expect(await toToolResult('not structured', arkCheck)).toEqual({ content: [{ type: 'text', text: 'not structured' }] })
    expect(await toToolResult(42, arkCheck)).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/\(\(root\): /) }] })
  })

  it('types what the handler may return', () => {
    defineMcpTool({ outputSchema: toStandardJsonSchema(result), handler: () => ({ sum: 2 }) })
    // @ts-expect-error: sum must be a number
    defineMcpTool({ outputSchema: type({ sum: 'number' }), handler: () => ({ sum: 'two' }) })
  })
})
