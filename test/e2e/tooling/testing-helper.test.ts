import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answerMcpElicitationAs, connectMcpTestClient, forEachMcpEra, startMcpTestApp } from '../../../src/testing'
import type { McpTestApp } from '../../../src/testing'
import { fixtureDir } from '../../utils/fixture'

let app: McpTestApp

beforeAll(async () => {
  app = await startMcpTestApp(fixtureDir('elicitation'), { env: { NUXT_MCP_STATE_SECRET: 't'.repeat(40) } })
})
afterAll(() => app?.stop())

describe('nuxt-mcp-elicitation/testing', () => {
  it('fills a form by field over its defaults, in both eras, and records schema and rounds', async () => {
    const eras: string[] = []
    await forEachMcpEra(app.url, { person: { fields: { name: 'Ada', plan: 'pro' } } }, async (mcp) => {
      eras.push(mcp.era)
      const call = await mcp.callTool('ask_form', { label: `helper-${mcp.era}` })
      expect(JSON.parse(call.text)).toEqual({ action: 'accept', content: { name: 'Ada', plan: 'pro', subscribe: true } })
      expect(call.elicitations).toHaveLength(1)
      expect(call.elicitations[0]!.request.requestedSchema?.required).toEqual(['name', 'plan'])
      expect(call.rounds).toBe(mcp.era === 'modern' ? 2 : 1)
    })
    expect(eras).toEqual(['legacy', 'modern'])
  })

  it('answers by message across modern rounds and tags each question with its round', async () => {
    const mcp = await connectMcpTestClient(app.url, {
      era: 'modern',
      person: { byMessage: { 'First name': { action: 'accept', content: { first: 'Ada' } }, 'Last name': { action: 'accept', content: { last: 'Lovelace' } } } },
    })
    const call = await mcp.callTool('ask_two_rounds')
    expect(call.text).toBe('Ada Lovelace')
    expect(call.rounds).toBe(3)
    expect(call.elicitations.map(e => e.round)).toEqual([1, 2])
    await mcp.close()
  })

  it('declines what it has no script for, and connects without the capability when there is no person', async () => {
    const declining = await connectMcpTestClient(app.url, { era: 'legacy', person: {} })
    expect(JSON.parse((await declining.callTool('ask_form')).text)).toEqual({ action: 'decline' })
    await declining.close()
    const silent = await connectMcpTestClient(app.url, { era: 'legacy' })
    expect((await silent.callTool('ask_supports')).text).toBe('{"form":false,"url":false}')
    await silent.close()
  })

  it('answerMcpElicitationAs: function first, then message, then fields; URL requests accepted under fields', async () => {
    const request = { message: 'Pick one', requestedSchema: { type: 'object' as const, properties: { a: { default: 'x' }, b: {} } } }
    expect(await answerMcpElicitationAs({ answer: () => ({ action: 'cancel' }), fields: { a: 'y' } }, request)).toEqual({ action: 'cancel' })
    expect(await answerMcpElicitationAs({ byMessage: { Pick: { action: 'decline' } }, fields: { a: 'y' } }, request)).toEqual({ action: 'decline' })
    expect(await answerMcpElicitationAs({ fields: { b: 'z' } }, request)).toEqual({ action: 'accept', content: { a: 'x', b: 'z' } })
    expect(await answerMcpElicitationAs({ fields: {} }, { mode: 'url', message: 'Go', url: 'https://example.com' })).toEqual({ action: 'accept' })
    expect(await answerMcpElicitationAs({ fallbackAction: 'cancel' }, request)).toEqual({ action: 'cancel' })
  })
})
