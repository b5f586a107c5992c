import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { defineMcpTool } from '../../../../src/runtime/server/mcp/definitions/definitions'
import type { McpToolArguments } from '../../../../src/runtime/server/mcp/definitions/definitions'
import { createMcpRegistry } from '../../../../src/runtime/server/mcp/definitions/registry'
import { jsonSchemaArguments } from '../../../../src/runtime/server/mcp/definitions/json-schema-arguments'
import type { ErasedTool } from '../../../../src/runtime/server/mcp/definitions/registry'
import contactSchema from '../../../fixtures/basic/contact-schema.json'

/** A registry as a build that kept the JSON Schema validator makes it (every build but a Worker's without one). */
function registryOf(definition: ErasedTool, kept = true) {
  return createMcpRegistry({ tools: [{ file: 'server/mcp/tools/t.ts', fallbackName: 't', definition }], resources: [], prompts: [], ...(kept && { jsonSchemaArguments }) })
}

describe('a tool\'s inputSchema as a JSON Schema written by hand', () => {
  it('fails at startup, naming the tool and the way out, where the build left the validator out', () => {
    expect(() => registryOf({ inputSchema: contactSchema, handler: () => '' }, false)).toThrow(/The tool "t" \(server\/mcp\/tools\/t\.ts\): its inputSchema is a JSON Schema written by hand, but this Worker build left the JSON Schema validator out.*object literal with type: 'object', or as an imported value/)
    // A Zod shape needs no validator.
    expect(registryOf({ inputSchema: { type: z.string() }, handler: () => '' }, false).lists.tools[0]?.inputSchema).toMatchObject({ properties: { type: { type: 'string' } } })
  })

  it('is listed as written and checks arguments as JSON Schema 2020-12 does', () => {
    const registry = registryOf({ inputSchema: contactSchema, handler: () => '' })
    expect(JSON.stringify(registry.lists.tools[0]?.inputSchema)).toBe(JSON.stringify(contactSchema))
    const check = registry.tools.get('t')!.args
    expect(check({ name: 'Ada', email: 'a@b.c' })).toEqual({ ok: true, data: { name: 'Ada', email: 'a@b.c' } })
    // if/then: the phone is required once the method says phone; anyOf: one of the two at least.
    expect(check({ contactMethod: 'phone', email: 'a@b.c' })).toMatchObject({ ok: false, problem: expect.stringMatching(/required property "phone"/) })
    expect(check({ name: 'Ada' })).toMatchObject({ ok: false })
    // $ref into $defs, and additionalProperties: false.
    expect(check({ email: 'a@b.c', address: { street: 1 } })).toMatchObject({ ok: false, problem: expect.stringMatching(/#\/address\/street/) })
    expect(check({ email: 'a@b.c', extra: true })).toMatchObject({ ok: false, problem: expect.stringMatching(/"extra"/) })
    // What the validator says above each cause is left out.
    expect(check({ name: 'Ada' })).not.toMatchObject({ problem: expect.stringMatching(/A subschema had errors/) })
  })

  it('is not changed by the registry or the validator, and a later change to the definition\'s object changes nothing', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }
    const before = JSON.stringify(schema)
    const registry = registryOf({ inputSchema: schema, handler: () => '' })
    expect(JSON.stringify(schema)).toBe(before)
    expect(Object.getOwnPropertyNames(schema.properties.n)).toEqual(['type'])
    schema.properties.n.type = 'string'
    expect(registry.tools.get('t')!.args({ n: 1 })).toEqual({ ok: true, data: { n: 1 } })
    expect(JSON.stringify(registry.lists.tools[0]?.inputSchema)).toBe(before)
  })

  it('fails at startup, naming the tool, when the schema cannot be used', () => {
    expect(() => registryOf({ inputSchema: { $schema: 'http://json-schema.org/draft-03/schema#', type: 'object' }, handler: () => '' }))
      .toThrow(/The tool "t" \(server\/mcp\/tools\/t\.ts\): its inputSchema cannot be used \(.*dialect.*\)\. Supported: JSON Schema 2020-12/)
    const cyclic: Record<string, unknown> = { type: 'object' }
    cyclic.self = cyclic
    expect(() => registryOf({ inputSchema: { type: 'object', properties: cyclic }, handler: () => '' })).toThrow(/its inputSchema is not JSON data/)
    expect(() => registryOf({ inputSchema: { type: 'array', items: {} }, handler: () => '' })).toThrow(/neither a Zod shape \(its field "type" is no Zod 4 schema\) nor a JSON Schema object/)
  })

  it('fails at startup on "format": "url", whose check in the validator takes exponential time, naming the tool, each place and the fix', () => {
    // Wherever the validator may reach it: a property, a $defs entry behind a $ref, an anyOf branch.
    const schema = {
      type: 'object',
      properties: { site: { type: 'string', format: 'url' }, links: { type: 'array', items: { $ref: '#/$defs/link' } } },
      $defs: { link: { anyOf: [{ type: 'string', format: 'url' }, { type: 'null' }] } },
    }
    expect(() => registryOf({ inputSchema: schema, handler: () => '' }))
      .toThrow(/The tool "t" \(server\/mcp\/tools\/t\.ts\): its inputSchema says "format": "url" at #\/properties\/site and #\/\$defs\/link\/anyOf\/0\b.*exponential.*Write "format": "uri"/)
    // Data is no schema: a `const`, an `enum`, a `default`, or a property named "format", is not refused.
    const data = { type: 'object', properties: { format: { type: 'string', const: 'url', default: 'url', enum: ['url'] }, meta: { const: { format: 'url' } } } }
    expect(registryOf({ inputSchema: data, handler: () => '' }).tools.get('t')!.args({ format: 'url' })).toMatchObject({ ok: true })
  })

  it('fails at startup on "format": "url" inside draft-07 "dependencies", whose every value the validator runs as a schema, keys named like keywords included', () => {
    // `validate` runs `dependencies.default` for an argument named "default"; `dereference` files
    // `dependencies` itself as a schema, so a `$ref` reaches `#/dependencies/properties/default`.
    const reached = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', dependencies: { default: { properties: { u: { type: 'number' } } } } }
    expect(registryOf({ inputSchema: reached, handler: () => '' }).tools.get('t')!.args({ default: 1, u: 'x' })).toMatchObject({ ok: false, problem: expect.stringMatching(/u/) })
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { v: { $ref: '#/dependencies/properties/default' } },
      dependencies: { default: { properties: { u: { type: 'string', format: 'url' } } }, properties: { default: { type: 'string', format: 'url' } }, tags: ['default'] },
    }
    expect(() => registryOf({ inputSchema: schema, handler: () => '' }))
      .toThrow(/its inputSchema says "format": "url" at #\/dependencies\/default\/properties\/u and #\/dependencies\/properties\/default\. .*Write "format": "uri"/)
  })

  it('checks "format": "uri", the way out, on a 50 kB string a backtracking check could not finish', () => {
    const check = registryOf({ inputSchema: { type: 'object', properties: { site: { type: 'string', format: 'uri' } } }, handler: () => '' }).tools.get('t')!.args
    expect(check({ site: `http://${'a'.repeat(50_000)}!` })).toMatchObject({ ok: true })
    expect(check({ site: `http://${'a'.repeat(50_000)} ` })).toMatchObject({ ok: false, problem: expect.stringMatching(/#\/site: String does not match format "uri"/) })
  })

  it('tells a Zod shape with a field named "type" from a JSON Schema', () => {
    const registry = registryOf({ inputSchema: { type: z.enum(['a', 'b']) }, handler: () => '' })
    expect(registry.lists.tools[0]?.inputSchema).toMatchObject({ type: 'object', properties: { type: { enum: ['a', 'b'] } } })
    expect(registry.tools.get('t')!.args({ type: 'a' })).toEqual({ ok: true, data: { type: 'a' } })
  })

  it('types the handler\'s arguments: the Zod output for a shape, Record<string, unknown> for a JSON Schema', () => {
    defineMcpTool({
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>()
        return ''
      },
    })
    defineMcpTool({
      inputSchema: contactSchema,
      handler: args => String(args.name),
    })
    defineMcpTool({
      inputSchema: { text: z.string(), type: z.number() },
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ text: string, type: number }>()
        return args.text
      },
    })
    expectTypeOf<McpToolArguments<{ n: z.ZodNumber }>>().toEqualTypeOf<{ n: number }>()
  })
})
