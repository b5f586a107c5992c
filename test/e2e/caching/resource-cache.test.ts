import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import type { Answerer } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'

/** A resource's `cache`: reads served again per caller and URI, shared when said so; errors and asking reads never kept. */

let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('elicitation')
})
afterAll(async () => {
  await app?.stop()
})

async function withClient<T>(era: 'legacy' | 'modern', principal: string, use: (client: Awaited<ReturnType<typeof connectLegacy>> | Awaited<ReturnType<typeof connectModern>>) => Promise<T>, answer?: Answerer): Promise<T> {
  const options = { answer, requestInit: { headers: { 'x-user': principal } } }
  const client = era === 'legacy' ? await connectLegacy(app.url, options) : await connectModern(app.url, options)
  try {
    return await use(client)
  }
  finally {
    await client.close()
  }
}

async function read(era: 'legacy' | 'modern', principal: string, uri: string, answer?: Answerer) {
  return withClient(era, principal, client => client.readResource({ uri }), answer)
}

function textOfRead(result: { contents: unknown[] }): string {
  const [first] = result.contents
  return typeof first === 'object' && first !== null && 'text' in first ? String(first.text) : ''
}

async function runs(era: 'legacy' | 'modern'): Promise<Record<string, number>> {
  const client = era === 'legacy' ? await connectLegacy(app.url) : await connectModern(app.url)
  try {
    return JSON.parse(textOf(await client.callTool({ name: 'runs', arguments: {} })))
  }
  finally {
    await client.close()
  }
}

describe.each(['legacy', 'modern'] as const)('%s era', (era) => {
  it('serves a read again for the same caller and URI (its getKey), and reads again for another caller or URI', async () => {
    const item = `${era}-lamp`
    expect(textOfRead(await read(era, 'ada', `cached://notes/${item}`))).toBe(`note ${item}: run 1`)
    // `getKey` keeps the path only: a query string reads the same entry.
    expect(textOfRead(await read(era, 'ada', `cached://notes/${item}?v=2`))).toBe(`note ${item}: run 1`)
    expect(textOfRead(await read(era, 'bob', `cached://notes/${item}`))).toBe(`note ${item}: run 2`)
    expect(textOfRead(await read(era, 'ada', `cached://notes/${item}-2`))).toBe(`note ${item}-2: run 1`)
  })

  it('shares one entry between callers with scope "shared"', async () => {
    const item = `${era}-news`
    expect(textOfRead(await read(era, 'ada', `cached://board/${item}`))).toBe(`board ${item}: run 1`)
    expect(textOfRead(await read(era, 'bob', `cached://board/${item}`))).toBe(`board ${item}: run 1`)
  })

  it('keeps nothing per caller for a read without a principal (issue 48), and still shares a shared entry', async () => {
    const item = `${era}-anonymous`
    // An empty x-user: the mcp:auth hook sets no principal.
    expect(textOfRead(await read(era, '', `cached://notes/${item}`))).toBe(`note ${item}: run 1`)
    expect(textOfRead(await read(era, '', `cached://notes/${item}`))).toBe(`note ${item}: run 2`)
    expect(textOfRead(await read(era, 'ada', `cached://notes/${item}`))).toBe(`note ${item}: run 3`)
    expect(textOfRead(await read(era, 'ada', `cached://notes/${item}`))).toBe(`note ${item}: run 3`)
    expect(textOfRead(await read(era, '', `cached://board/${item}`))).toBe(`board ${item}: run 1`)
    expect(textOfRead(await read(era, '', `cached://board/${item}`))).toBe(`board ${item}: run 1`)
  })

  it('never keeps a failed read, nor one that asked the person', async () => {
    const broken = `broken-${era}`
    for (let i = 0; i < 2; i++) await expect(read(era, 'ada', `cached://notes/${broken}`)).rejects.toThrow(`no note for ${broken}`)
    const asked = `asked-${era}`
    const yes: Answerer = () => ({ action: 'accept', content: { confirm: true } })
    await read(era, 'ada', `cached://notes/${asked}`, yes)
    await read(era, 'ada', `cached://notes/${asked}`, yes)
    const counted = await runs(era)
    expect(counted[`cached_note:${broken}`]).toBe(2)
    // Legacy runs the asking handler once per read; modern once per round (two rounds a read).
    expect(counted[`cached_note:${asked}`]).toBe(era === 'legacy' ? 2 : 4)
  })
})

describe('the 2026-07-28 cache fields', () => {
  it('tells the client what the server keeps: private per caller, public when shared, never longer than the entry has left', async () => {
    const first = await read('modern', 'ada', 'cached://notes/hint')
    expect(first).toMatchObject({ ttlMs: 600_000, cacheScope: 'private' })
    const again = await read('modern', 'ada', 'cached://notes/hint')
    expect(textOfRead(again)).toBe(textOfRead(first))
    expect(again.ttlMs).toBeGreaterThan(0)
    expect(again.ttlMs).toBeLessThanOrEqual(600_000)
    expect(await read('modern', 'ada', 'cached://board/hint')).toMatchObject({ cacheScope: 'public' })
  })
})
