import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { headerProblems, scanHeaderAnnotations } from '../../../src/scan-headers'
import { repoRoot } from '../../utils/fixture'

describe('scanHeaderAnnotations: the literal x-mcp-header annotations of a tool file', () => {
  it('reads the property of a raw JSON Schema property and of a Zod field', () => {
    const source = `defineMcpTool({
      inputSchema: {
        type: 'object',
        properties: {
          region: { 'type': 'string', 'x-mcp-header': 'Region' },
          "tenant-id": { "x-mcp-header": "Tenant", "type": "integer" },
        },
      },
    })
    const shape = { zone: z.string().min(2).meta({ 'x-mcp-header': 'Zone', title: 'Zone' }), plan: z.enum(['a']).meta({ "x-mcp-header": "Plan" }) }`
    expect(scanHeaderAnnotations(source)).toEqual([
      { property: 'region', header: 'Region', type: 'string' },
      { property: 'tenant-id', header: 'Tenant', type: 'integer' },
      { property: 'zone', header: 'Zone' },
      { property: 'plan', header: 'Plan' },
    ])
  })

  it('reads the fixtures\' real tools as the runtime does', () => {
    const deploy = readFileSync(resolve(repoRoot, 'test/fixtures/basic/server/mcp/tools/deploy.ts'), 'utf8')
    const ship = readFileSync(resolve(repoRoot, 'test/fixtures/runtime-layer/server/mcp/tools/ship.ts'), 'utf8')
    expect(scanHeaderAnnotations(deploy).length).toBeGreaterThan(0)
    expect(headerProblems(deploy)).toEqual([])
    expect(scanHeaderAnnotations(ship)).toEqual([{ property: 'region', header: 'Region', type: 'string' }])
  })
})

describe('headerProblems: what fails nuxi build, naming the property and the rule', () => {
  it('refuses a name that is not an HTTP token', () => {
    expect(headerProblems(`{ region: z.string().meta({ 'x-mcp-header': 'Re gion' }) }`))
      .toEqual(['property "region": x-mcp-header "Re gion" is not a header name (letters, digits and !#$%&\'*+-.^_`|~ only)'])
    expect(headerProblems(`{ city: { type: 'string', 'x-mcp-header': 'Zürich' } }`)[0]).toMatch(/^property "city": x-mcp-header "Zürich" is not a header name/)
  })

  it('refuses the same header twice in one tool, case-insensitively', () => {
    expect(headerProblems(`{ a: z.string().meta({ 'x-mcp-header': 'Region' }), b: z.string().meta({ 'x-mcp-header': 'REGION' }) }`))
      .toEqual(['property "b": x-mcp-header "REGION" repeats the header of property "a" (header names are case-insensitive): give each argument its own name'])
  })

  it('refuses a header on a value that is no primitive, where the source shows it', () => {
    expect(headerProblems(`{ tags: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'Tags' } }`))
      .toEqual(['property "tags": x-mcp-header "Tags" is on a value of type array: only a string, number, integer or boolean has one value to mirror'])
    expect(headerProblems(`{ where: z.object({ a: z.string() }).meta({ 'x-mcp-header': 'Where' }) }`)[0]).toMatch(/is on a value of type object/)
  })

  it('leaves to the server\'s start what the text does not show (a name in a variable, a built schema)', () => {
    expect(headerProblems(`const name = 'Re gion'; const s = { region: z.string().meta({ 'x-mcp-header': name }) }`)).toEqual([])
    expect(headerProblems(`{ region: regionSchema }`)).toEqual([])
  })
})
