import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { postModern } from '../../utils/raw'

// Per-definition guards (`scopes`, `enabled`): each caller sees and uses only its own, in both eras.
let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('guards')
})
afterAll(async () => {
  await app?.stop()
})

type Caller = Record<string, string>
const alice: Caller = { 'x-user': 'alice' }
const admin: Caller = { 'x-user': 'admin' }
const billingClerk: Caller = { 'x-user': 'clerk', 'x-scopes': 'billing:read,other' }

/** Both eras' clients, as one caller. */
const eras = [
  { era: 'legacy (v1 Client)', connect: (headers: Caller) => connectLegacy(app.url, { requestInit: { headers } }) },
  { era: '2026-07-28 (v2 Client)', connect: (headers: Caller) => connectModern(app.url, { requestInit: { headers } }) },
]

async function toolNames(headers: Caller, connect: (headers: Caller) => ReturnType<typeof connectLegacy> | ReturnType<typeof connectModern>): Promise<string[]> {
  const client = await connect(headers)
  try {
    return (await client.listTools()).tools.map(tool => tool.name).sort()
  }
  finally {
    await client.close()
  }
}

async function callError(headers: Caller, connect: (headers: Caller) => ReturnType<typeof connectLegacy> | ReturnType<typeof connectModern>, name: string): Promise<string> {
  const client = await connect(headers)
  try {
    return await client.callTool({ name, arguments: {} }).then(result => `result: ${textOf(result)}`, (error: unknown) => String(error))
  }
  finally {
    await client.close()
  }
}

describe.each(eras)('guards, $era', ({ connect }) => {
  it('lists to each caller only what it may use', async () => {
    expect(await toolNames(alice, connect)).toEqual(['cart_add', 'fill_session', 'public_echo'])
    expect(await toolNames(admin, connect)).toEqual(['admin_report', 'cart_add', 'fill_session', 'public_echo'])
    expect(await toolNames(billingClerk, connect)).toEqual(['billing', 'cart_add', 'fill_session', 'public_echo'])
  })

  it('refuses a hidden tool called by name exactly as an unknown one', async () => {
    const hidden = await callError(alice, connect, 'admin_report')
    const unknown = await callError(alice, connect, 'no_such_tool')
    expect(hidden).toMatch(/Unknown tool "admin_report"/)
    expect(hidden.replace('admin_report', 'X')).toBe(unknown.replace('no_such_tool', 'X'))
    expect(await callError(alice, connect, 'billing')).toMatch(/Unknown tool "billing"/)
    expect(await callError(admin, connect, 'broken_guard')).toMatch(/Unknown tool "broken_guard"/)
  })

  it('lets the allowed caller use it', async () => {
    const client = await connect(admin)
    try {
      expect(textOf(await client.callTool({ name: 'admin_report', arguments: {} }))).toBe('report for admin')
      expect((await client.readResource({ uri: 'notes://admin' })).contents[0]).toMatchObject({ text: 'the admin notes' })
      expect((await client.listResources()).resources.map(resource => resource.uri)).toEqual(['notes://admin'])
      expect((await client.listPrompts()).prompts.map(prompt => prompt.name)).toEqual(['admin_prompt'])
      expect((await client.complete({ ref: { type: 'ref/prompt', name: 'admin_prompt' }, argument: { name: 'topic', value: '' } })).completion.values).toEqual(['audit', 'access'])
    }
    finally {
      await client.close()
    }
  })

  it('hides resources and prompts the same way', async () => {
    const client = await connect(alice)
    try {
      expect((await client.listResources()).resources).toEqual([])
      expect((await client.listPrompts()).prompts).toEqual([])
      await expect(client.readResource({ uri: 'notes://admin' })).rejects.toThrow(/Resource not found: "notes:\/\/admin"/)
      await expect(client.getPrompt({ name: 'admin_prompt', arguments: { topic: 'x' } })).rejects.toThrow(/Unknown prompt "admin_prompt"/)
      expect((await client.complete({ ref: { type: 'ref/prompt', name: 'admin_prompt' }, argument: { name: 'topic', value: '' } })).completion.values).toEqual([])
    }
    finally {
      await client.close()
    }
  })
})

describe('guards, legacy resource subscriptions', () => {
  it('refuses to subscribe to a hidden resource exactly as to an unknown one', async () => {
    const client = await connectLegacy(app.url, { requestInit: { headers: alice } })
    try {
      const hidden = await client.subscribeResource({ uri: 'notes://admin' }).then(() => 'subscribed', (error: unknown) => String(error))
      const unknown = await client.subscribeResource({ uri: 'notes://nothing' }).then(() => 'subscribed', (error: unknown) => String(error))
      expect(hidden).toMatch(/Cannot subscribe to "notes:\/\/admin": no resource or resource template has that URI/)
      expect(hidden.replace('notes://admin', 'X')).toBe(unknown.replace('notes://nothing', 'X'))
    }
    finally {
      await client.close()
    }
  })
})

describe('guards, the wire', () => {
  it('marks a 2026-07-28 list that depends on the caller cacheScope "private"', async () => {
    const { message } = await postModern(app.url, 'tools/list', {}, { headers: admin })
    expect(message.result).toMatchObject({ cacheScope: 'private' })
  })

  it('says in the log why a guard that throws hides its definition', () => {
    expect(app.output()).toMatch(/The enabled\(\) guard of "broken_guard" threw, so it is hidden from this caller/)
  })
})
