import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { headerParamsOf } from '../../../../src/runtime/server/mcp/definitions/header-params'
import { createMcpRegistry } from '../../../../src/runtime/server/mcp/definitions/registry'

const where = 'The tool "t" (server/mcp/tools/t.ts)'

describe('x-mcp-header declarations (SEP-2243)', () => {
  it('are found on properties reached through properties, at any depth', () => {
    const schema = { type: 'object', properties: { region: { 'type': 'string', 'x-mcp-header': 'Region' }, target: { type: 'object', properties: { tenant: { 'type': 'integer', 'x-mcp-header': 'Tenant-Id' } } } } }
    expect(headerParamsOf(schema, where)).toEqual([
      { header: 'Region', path: ['region'], type: 'string' },
      { header: 'Tenant-Id', path: ['target', 'tenant'], type: 'integer' },
    ])
  })

  it('are refused when the server starts, naming the tool, the property and the rule', () => {
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ type: 'object', properties: { r: { 'type': 'string', 'x-mcp-header': 'Bad Name' } } }, /x-mcp-header at "r" is "Bad Name", which is not a header name/],
      [{ type: 'object', properties: { r: { 'type': 'string', 'x-mcp-header': '' } } }, /is "", which is not a header name/],
      [{ type: 'object', properties: { r: { 'type': 'object', 'x-mcp-header': 'R' } } }, /at "r" is on a property of type "object": only string, integer, number and boolean/],
      [{ type: 'object', properties: { a: { 'type': 'string', 'x-mcp-header': 'Region' }, b: { 'type': 'string', 'x-mcp-header': 'region' } } }, /at "b" repeats "region", already the header of "a"/],
      [{ type: 'object', properties: { list: { type: 'array', items: { 'type': 'string', 'x-mcp-header': 'Item' } } } }, /at "list\.items" is not on an argument reached through properties/],
      [{ type: 'object', anyOf: [{ properties: { r: { 'type': 'string', 'x-mcp-header': 'R' } } }] }, /at "anyOf\.r" is not on an argument reached through properties/],
      // A subschema with neither type nor properties is still one schema, not a map of them.
      [{ type: 'object', properties: { list: { type: 'array', items: { 'enum': ['a'], 'x-mcp-header': 'Item' } } } }, /at "list\.items" is not on an argument reached through properties/],
      [{ 'type': 'object', 'x-mcp-header': 'Root' }, /at the schema's root is not on an argument/],
    ]
    for (const [schema, message] of refusals) expect(() => headerParamsOf(schema, where)).toThrow(message)
  })

  it('come from a Zod shape\'s .meta() as from a JSON Schema, and a bad one stops the registry', () => {
    const tool = (inputSchema: Record<string, z.ZodType>) => createMcpRegistry({ tools: [{ file: 'server/mcp/tools/t.ts', fallbackName: 't', definition: { inputSchema, handler: () => '' } }], resources: [], prompts: [] })
    expect(tool({ region: z.string().meta({ 'x-mcp-header': 'Region' }) }).tools.get('t')?.headerParams).toEqual([{ header: 'Region', path: ['region'], type: 'string' }])
    expect(() => tool({ tags: z.array(z.string()).meta({ 'x-mcp-header': 'Tags' }) })).toThrow(/The tool "t" \(server\/mcp\/tools\/t\.ts\): the x-mcp-header at "tags" is on a property of type "array"/)
  })
})
