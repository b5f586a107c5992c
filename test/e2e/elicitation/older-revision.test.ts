import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import Ajv from 'ajv'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repoRoot, startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { nextMessage, openRawLegacy, singleMessage, sseMessages } from '../../utils/raw-legacy'

// A client that negotiated 2025-06-18, the first revision with elicitation: its forms know no
// titled oneOf selects, no multi-selects and defaults on booleans only. The server adapts the form
// to what the session negotiated, or refuses naming the field and the revision.
const REVISION = '2025-06-18'
let app: RunningFixture

// The 2025-06-18 spec's own requestedSchema, closed (additionalProperties: false) on every variant.
const spec: { definitions: Record<string, Record<string, unknown>> } = JSON.parse(readFileSync(resolve(repoRoot, 'test/spec/mcp-schema-2025-06-18.json'), 'utf8'))
const definitions = structuredClone(spec.definitions)
for (const name of ['StringSchema', 'NumberSchema', 'BooleanSchema', 'EnumSchema']) definitions[name]!.additionalProperties = false
// The spec's requestedSchema (type, properties of PrimitiveSchemaDefinition, required), closed too.
const validate = new Ajv({ strict: false, allErrors: true }).compile({
  definitions,
  type: 'object',
  required: ['type', 'properties'],
  properties: { type: { const: 'object' }, required: { type: 'array', items: { type: 'string' } }, properties: { type: 'object', additionalProperties: { $ref: '#/definitions/PrimitiveSchemaDefinition' } } },
  additionalProperties: false,
})

beforeAll(async () => {
  app = await startFixture('elicitation')
})
afterAll(async () => {
  await app?.stop()
})

describe(`a legacy session on ${REVISION}`, () => {
  it('gets forms its revision can show, and the dropped defaults still fill the answer', async () => {
    const session = await openRawLegacy(app, { elicitation: {} }, REVISION)
    const call = await session.post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'ask_release_older', arguments: {} } })
    const messages = sseMessages(call)
    const asked = await nextMessage(messages, 'the elicitation')
    expect(asked.method).toBe('elicitation/create')
    const schema = asked.params?.requestedSchema
    expect(validate(schema), JSON.stringify(validate.errors)).toBe(true)
    expect(schema).toMatchObject({
      properties: {
        channel: { type: 'string', enum: ['stable', 'beta'], enumNames: ['Stable', 'Beta'] },
        notify: { type: 'boolean', default: true },
      },
    })
    expect(JSON.stringify(schema)).not.toMatch(/"oneOf"|"default":"none"|"default":2/)
    const answered = await session.post({ jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { channel: 'beta' } } })
    await answered.body?.cancel()
    const done = await nextMessage(messages, 'the result')
    const text = (done.result?.content as { text: string }[])[0]!.text
    expect(JSON.parse(text)).toEqual({ action: 'accept', content: { channel: 'beta', note: 'none', copies: 2, notify: true } })
    await session.close()
  })

  it('gets confirm()\'s default "no" too (booleans had defaults from the first revision), and an unticked answer is "no"', async () => {
    const session = await openRawLegacy(app, { elicitation: {} }, REVISION)
    const call = await session.post({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'ask_confirm', arguments: {} } })
    const messages = sseMessages(call)
    const asked = await nextMessage(messages, 'the elicitation')
    const schema = asked.params?.requestedSchema
    expect(validate(schema), JSON.stringify(validate.errors)).toBe(true)
    expect(schema).toEqual({ type: 'object', properties: { confirm: { type: 'boolean', title: 'Confirm', default: false } } })
    const answered = await session.post({ jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { confirm: false } } })
    await answered.body?.cancel()
    const done = await nextMessage(messages, 'the result')
    expect((done.result?.content as { text: string }[])[0]!.text).toBe('not confirmed')
    await session.close()
  })

  it('refuses a multi-select with invalid-schema naming the field and the revision', async () => {
    const session = await openRawLegacy(app, { elicitation: {} }, REVISION)
    const message = await singleMessage(await session.post({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'ask_form', arguments: {} } }))
    expect(message.result?.isError).toBe(true)
    const text = (message.result?.content as { text: string }[])[0]!.text
    expect(text).toMatch(/"tags"/)
    expect(text).toMatch(/2025-06-18/)
    await session.close()
  })
})
