import { describe, expect, it } from 'vitest'
import { babelParse, parse } from 'vue/compiler-sfc'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { anyMayDeclareJsonSchema, readDefinition } from '../../../src/build/definitions/read'

/** Whether a tool file may write a JSON Schema by hand, as the build reads it. */
const mayDeclareJsonSchema = (source: string) => readDefinition(babelParse, source).mayDeclareJsonSchema

// A Worker's bundle carries the JSON Schema validator only when a tool may write a JSON Schema by
// hand in inputSchema. The reading errs one way: what it cannot tell apart from one counts as one.
const tool = (inputSchema: string) => `import { z } from 'zod'\nexport default defineMcpTool({\n  description: 'd',\n  inputSchema: ${inputSchema},\n  handler: async args => 'ok',\n})\n`

describe('whether a tool file may write a JSON Schema by hand', () => {
  it('says no for Zod shapes (a field named type included), z.… schemas and tools without inputSchema', () => {
    for (const input of [
      '{ text: z.string() }',
      '{ type: z.enum([\'a\', \'b\']), kg: z.number().min(0) }',
      '{ pattern: z.string().regex(/^[a-z\'"]+$/) } as const',
      'z.object({ text: z.string() }).strict()',
      '{}',
    ]) expect(mayDeclareJsonSchema(tool(input)), input).toBe(false)
    expect(mayDeclareJsonSchema('export default defineMcpTool({ handler: () => \'x\' })')).toBe(false)
  })

  it('says yes for a JSON Schema literal, and for whatever it cannot read', () => {
    for (const input of [
      '{ type: \'object\', properties: { kg: { type: \'number\' } } }',
      '{ "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object" } satisfies object',
      '{ type: OBJECT, properties: {} }',
      '{ ...base, extra: z.string() }',
      '{ [key]: z.string() }',
      'shipSchema',
      'loadSchema(\'ship.json\')',
      'toStandardJsonSchema(v.object({ text: v.string() }))',
    ]) expect(mayDeclareJsonSchema(tool(input)), input).toBe(true)
    expect(mayDeclareJsonSchema('export default defineMcpTool({ ...common, handler: () => \'x\' })')).toBe(true)
    expect(mayDeclareJsonSchema('export default defineMcpTool(makeTool())')).toBe(true)
    expect(mayDeclareJsonSchema('export default { inputSchema: s, handler }')).toBe(true)
    expect(mayDeclareJsonSchema('export default defineMcpTool({ inputSchema: {')).toBe(true)
  })

  it('reads the tool a view declares, and a view without one declares none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scan-json-schema-'))
    const plain = join(dir, 'plain.vue')
    const zodView = join(dir, 'zod.vue')
    const rawView = join(dir, 'raw.vue')
    writeFileSync(plain, '<script setup lang="ts">\nconst { data } = useMcpView()\n</script>\n<template><p>{{ data }}</p></template>\n')
    writeFileSync(zodView, '<script setup lang="ts">\nimport { z } from \'zod\'\ndefineMcpView({ description: \'d\', inputSchema: { city: z.string() }, handler: ({ city }) => ({ city }) })\n</script>\n<template><p /></template>\n')
    writeFileSync(rawView, '<script setup lang="ts">\ndefineMcpView({ description: \'d\', inputSchema: { type: \'object\', properties: {} }, handler: () => ({}) })\n</script>\n<template><p /></template>\n')
    const tools = [readDefinition(babelParse, tool('{ text: z.string() }'))]
    const sfc = { babelParse, parse }
    expect(await anyMayDeclareJsonSchema(sfc, tools, [plain, zodView])).toBe(false)
    expect(await anyMayDeclareJsonSchema(sfc, tools, [plain, rawView])).toBe(true)
    expect(await anyMayDeclareJsonSchema(sfc, [...tools, readDefinition(babelParse, tool('shipSchema'))], [plain])).toBe(true)
  })
})
