import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import type { Answerer } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'

/** A tool's `cache`: results served again per caller and arguments; errors and asking calls never kept. */

let app: RunningFixture
// The same app behind a proxy it trusts (loopback), so each anonymous caller is told apart by the
// address it names in X-Forwarded-For, with a per-caller share of two small entries.
let proxied: RunningFixture

beforeAll(async () => {
  ;[app, proxied] = await Promise.all([
    startFixture('elicitation'),
    startFixture('elicitation', { NUXT_MCP_TRUSTED_PROXIES: '127.0.0.1', NUXT_MCP_CACHE_MAX_BYTES_PER_CALLER: '1000' }),
  ])
})
afterAll(async () => {
  await Promise.all([app?.stop(), proxied?.stop()])
})

async function quote(era: 'legacy' | 'modern', principal: string, args: Record<string, unknown>, answer?: Answerer) {
  const options = { answer, requestInit: { headers: { 'x-user': principal } } }
  const client = era === 'legacy' ? await connectLegacy(app.url, options) : await connectModern(app.url, options)
  try {
    return await client.callTool({ name: 'cached_quote', arguments: args })
  }
  finally {
    await client.close()
  }
}

describe.each(['legacy', 'modern'] as const)('%s era', (era) => {
  it('serves a result again for the same caller and arguments, and runs for another caller or other arguments', async () => {
    const item = `${era}-lamp`
    expect(textOf(await quote(era, 'ada', { item }))).toBe(`quote for ${item}: run 1`)
    expect(textOf(await quote(era, 'ada', { item }))).toBe(`quote for ${item}: run 1`)
    // Another caller has entries of their own: one person's result never reaches another.
    expect(textOf(await quote(era, 'bob', { item }))).toBe(`quote for ${item}: run 2`)
    // The same arguments written in another order are the same key; other arguments are not.
    expect(textOf(await quote(era, 'ada', { ask: false, item }))).toBe(`quote for ${item}: run 1`)
    expect(textOf(await quote(era, 'ada', { item: `${item}-2` }))).toBe(`quote for ${item}-2: run 1`)
  })

  it('never keeps an error result, nor a call that asked the person', async () => {
    const broken = `${era}-broken`
    for (let i = 0; i < 2; i++) expect((await quote(era, 'ada', { item: broken, fail: true })).isError).toBe(true)
    const asked = `${era}-asked`
    const yes: Answerer = () => ({ action: 'accept', content: { confirm: true } })
    expect(textOf(await quote(era, 'ada', { item: asked, ask: true }, yes))).toMatch(new RegExp(`^quote for ${asked}: run \\d+$`))
    const second = textOf(await quote(era, 'ada', { item: asked, ask: true }, yes))
    const runs = JSON.parse(textOf(await (era === 'legacy' ? connectLegacy(app.url) : connectModern(app.url)).then(async (client) => {
      try {
        return await client.callTool({ name: 'runs', arguments: {} })
      }
      finally {
        await client.close()
      }
    })))
    expect(runs[`cached_quote:${broken}`]).toBe(2)
    // Legacy runs the asking handler once per call; modern once per round (two rounds a call).
    expect(runs[`cached_quote:${asked}`]).toBe(era === 'legacy' ? 2 : 4)
    expect(second).toBe(`quote for ${asked}: run ${era === 'legacy' ? 2 : 4}`)
  })
})

async function callWith(era: 'legacy' | 'modern', headers: Record<string, string>, name: string, args: Record<string, unknown> = {}, url = app.url) {
  const options = { requestInit: { headers } }
  const client = era === 'legacy' ? await connectLegacy(url, options) : await connectModern(url, options)
  try {
    return textOf(await client.callTool({ name, arguments: args }))
  }
  finally {
    await client.close()
  }
}

describe.each(['legacy', 'modern'] as const)('%s era, callers without a principal (issue 48)', (era) => {
  it('keeps nothing per caller for a call without a principal: an API-key caller, then an anonymous one, then one whose authInfo has no subject', async () => {
    // `cached_private` names its caller by the API key the mcp:auth hook puts in authInfo (no sub).
    const keyA = `${era}-key-a`
    const first = await callWith(era, { 'x-api-key': keyA }, 'cached_private')
    expect(first).toMatch(new RegExp(`^private data of ${keyA}: run \\d+$`))
    expect(await callWith(era, {}, 'cached_private')).toMatch(/^private data of anonymous: run \d+$/)
    expect(await callWith(era, { 'x-token-sub': '' }, 'cached_private')).toMatch(/^private data of opaque: run \d+$/)
    // Not kept for the key's own caller either: without a principal there is no "own" entry.
    expect(await callWith(era, { 'x-api-key': keyA }, 'cached_private')).not.toBe(first)
  })

  it('keeps a caller with a principal apart as before', async () => {
    const item = `${era}-principal`
    expect(await callWith(era, { 'x-user': 'ada' }, 'cached_quote', { item })).toBe(`quote for ${item}: run 1`)
    expect(await callWith(era, { 'x-user': 'ada' }, 'cached_quote', { item })).toBe(`quote for ${item}: run 1`)
    expect(await callWith(era, {}, 'cached_quote', { item })).toBe(`quote for ${item}: run 2`)
    expect(await callWith(era, {}, 'cached_quote', { item })).toBe(`quote for ${item}: run 3`)
  })
})

describe.each(['legacy', 'modern'] as const)('%s era, arguments the schema transforms (issue 48)', (era) => {
  it('keys a shared entry on the arguments sent: two callers with different URLs get their own results', async () => {
    const a = `https://a.example/${era}`
    const b = `https://b.example/${era}`
    expect(await callWith(era, { 'x-user': 'ada' }, 'cached_link', { url: a })).toBe(`link ${a}: run 1`)
    expect(await callWith(era, { 'x-user': 'bob' }, 'cached_link', { url: b })).toBe(`link ${b}: run 1`)
    // The same URL is still one shared entry.
    expect(await callWith(era, { 'x-user': 'bob' }, 'cached_link', { url: a })).toBe(`link ${a}: run 1`)
  })
})

describe.each(['legacy', 'modern'] as const)('%s era, anonymous callers\' shares (issue 48)', (era) => {
  it('gives each anonymous caller (by client address) a share of its own: one that filled its share does not stop shared caching for another', async () => {
    const filler = { 'x-forwarded-for': `10.48.${era === 'legacy' ? 1 : 2}.1` }
    const other = { 'x-forwarded-for': `10.48.${era === 'legacy' ? 1 : 2}.2` }
    const link = (n: number) => `https://share.example/${era}/${n}`
    // Two entries fill a 1,000-byte share (each counts 256 bytes besides its key and value): the third is not kept.
    for (const n of [1, 2, 3]) expect(await callWith(era, filler, 'cached_link', { url: link(n) }, proxied.url)).toBe(`link ${link(n)}: run 1`)
    expect(await callWith(era, filler, 'cached_link', { url: link(3) }, proxied.url)).toBe(`link ${link(3)}: run 2`)
    // Another anonymous caller, at another address, still has its whole share.
    expect(await callWith(era, other, 'cached_link', { url: link(4) }, proxied.url)).toBe(`link ${link(4)}: run 1`)
    expect(await callWith(era, other, 'cached_link', { url: link(4) }, proxied.url)).toBe(`link ${link(4)}: run 1`)
    // And the first caller's entries are still served, to anyone (the entry is shared).
    expect(await callWith(era, other, 'cached_link', { url: link(1) }, proxied.url)).toBe(`link ${link(1)}: run 1`)
  })
})
