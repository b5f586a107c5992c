import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { babelParse } from 'vue/compiler-sfc'
import { headerProblems, readDefinition } from '../../../src/build/definitions/read'
import { repoRoot } from '../../utils/fixture'

/** The literal x-mcp-header annotations of a tool file, as the build reads them. */
const headersOf = (source: string) => readDefinition(babelParse, source).headers
/** What of them fails nuxi build. */
const problemsOf = (source: string) => headerProblems(headersOf(source))
/** A tool file whose inputSchema is `shape`. */
const tool = (shape: string) => `export default defineMcpTool({\n  inputSchema: ${shape},\n  handler: () => '',\n})\n`

describe('readDefinition: the literal x-mcp-header annotations of a tool file', () => {
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
    expect(headersOf(source)).toEqual([
      { property: 'region', header: 'Region', type: 'string' },
      { property: 'tenant-id', header: 'Tenant', type: 'integer' },
      { property: 'zone', header: 'Zone' },
      { property: 'plan', header: 'Plan' },
    ])
  })

  it('reads the fixtures\' real tools as the runtime does', () => {
    const deploy = readFileSync(resolve(repoRoot, 'test/fixtures/basic/server/mcp/tools/deploy.ts'), 'utf8')
    const ship = readFileSync(resolve(repoRoot, 'test/fixtures/runtime-layer/server/mcp/tools/ship.ts'), 'utf8')
    expect(headersOf(deploy).length).toBeGreaterThan(0)
    expect(problemsOf(deploy)).toEqual([])
    expect(headersOf(ship)).toEqual([{ property: 'region', header: 'Region', type: 'string' }])
  })

  it('is not thrown off by a bracket or brace inside a string', () => {
    const source = tool(`{
      region: z.string().describe('a closing } or ] in the text').meta({ 'x-mcp-header': 'Region' }),
      tags: { description: 'not [ here', type: 'array', items: { type: 'string' }, 'x-mcp-header': 'Tags' },
      plan: { description: 'a } inside', type: 'string', 'x-mcp-header': 'Plan' },
    }`)
    expect(headersOf(source)).toEqual([
      { property: 'region', header: 'Region' },
      { property: 'tags', header: 'Tags', type: 'array' },
      { property: 'plan', header: 'Plan', type: 'string' },
    ])
    expect(problemsOf(source)).toEqual(['property "tags": x-mcp-header "Tags" is on a value of type array: only a string, number, integer or boolean has one value to mirror'])
  })

  it('does not read an annotation in a comment or a string', () => {
    expect(headersOf(tool(`{ region: z.string() } // 'x-mcp-header': 'Re gion'`))).toEqual([])
    expect(headersOf(tool(`{ region: z.string().describe("'x-mcp-header': 'Re gion'") }`))).toEqual([])
  })
})

describe('headerProblems: what fails nuxi build, naming the property and the rule', () => {
  it('refuses a name that is not an HTTP token', () => {
    expect(problemsOf(tool(`{ region: z.string().meta({ 'x-mcp-header': 'Re gion' }) }`)))
      .toEqual(['property "region": x-mcp-header "Re gion" is not a header name (letters, digits and !#$%&\'*+-.^_`|~ only)'])
    expect(problemsOf(tool(`{ city: { type: 'string', 'x-mcp-header': 'Zürich' } }`))[0]).toMatch(/^property "city": x-mcp-header "Zürich" is not a header name/)
  })

  it('refuses the same header twice in one tool, case-insensitively', () => {
    expect(problemsOf(tool(`{ a: z.string().meta({ 'x-mcp-header': 'Region' }), b: z.string().meta({ 'x-mcp-header': 'REGION' }) }`)))
      .toEqual(['property "b": x-mcp-header "REGION" repeats the header of property "a" (header names are case-insensitive): give each argument its own name'])
  })

  it('refuses a header on a value that is no primitive, where the source shows it', () => {
    expect(problemsOf(tool(`{ tags: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'Tags' } }`)))
      .toEqual(['property "tags": x-mcp-header "Tags" is on a value of type array: only a string, number, integer or boolean has one value to mirror'])
    expect(problemsOf(tool(`{ where: z.object({ a: z.string() }).meta({ 'x-mcp-header': 'Where' }) }`))[0]).toMatch(/is on a value of type object/)
  })

  it('leaves to the server\'s start what the text does not show (a name in a variable, a built schema)', () => {
    expect(problemsOf(`const name = 'Re gion'; const s = { region: z.string().meta({ 'x-mcp-header': name }) }`)).toEqual([])
    expect(problemsOf(tool(`{ region: regionSchema }`))).toEqual([])
  })
})
