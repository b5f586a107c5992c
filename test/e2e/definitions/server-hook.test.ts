import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'

/**
 * The `mcp:server` hook: a listener adds methods of its own to every server built (a legacy
 * session's, a modern request's) and is refused the module's, with a message naming the method
 * and the fix; a listener that throws leaves the server serving.
 */

let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('elicitation')
})
afterAll(async () => {
  await app?.stop()
})

const Whoami = z.object({ who: z.string(), signal: z.boolean() })
const Notes = z.object({ notes: z.array(z.string()), refusals: z.array(z.string()) })

/** One client of either era, seen through what this file needs of it. */
async function connect(era: 'legacy' | 'modern', principal: string) {
  const options = { requestInit: { headers: { 'x-user': principal } } }
  if (era === 'legacy') {
    const client = await connectLegacy(app.url, options)
    return {
      whoami: (params: Record<string, unknown>) => client.request({ method: 'acme/whoami', params }, Whoami),
      notes: () => client.request({ method: 'acme/notes', params: {} }, Notes),
      note: (text: string) => client.notification({ method: 'acme/note', params: { text } }),
      quote: async (item: string) => textOf(await client.callTool({ name: 'cached_quote', arguments: { item } })),
      close: () => client.close(),
    }
  }
  const client = await connectModern(app.url, options)
  return {
    whoami: (params: Record<string, unknown>) => client.request({ method: 'acme/whoami', params }, Whoami),
    notes: () => client.request({ method: 'acme/notes', params: {} }, Notes),
    note: (text: string) => client.notification({ method: 'acme/note', params: { text } }),
    quote: async (item: string) => textOf(await client.callTool({ name: 'cached_quote', arguments: { item } })),
    close: () => client.close(),
  }
}

describe.each(['legacy', 'modern'] as const)('%s era', (era) => {
  it('serves a method a listener added, with its params validated and the caller known', async () => {
    const client = await connect(era, 'ada')
    try {
      expect(await client.whoami({ shout: true })).toEqual({ who: `ADA ON /MCP (${era.toUpperCase()})`, signal: true })
      await expect(client.whoami({ shout: 'loud' })).rejects.toThrow(/shout/)
      await client.note(`${era} note`)
      // The module's own methods are still the module's.
      expect(await client.quote(`hook-${era}`)).toBe(`quote for hook-${era}: run 1`)
    }
    finally {
      await client.close()
    }
  })

  it('keeps serving when a listener throws', async () => {
    const client = await connect(era, 'thrower')
    try {
      // The throwing listener added its methods before it threw; the server was built anyway.
      expect((await client.whoami({})).who).toBe(`thrower on /mcp (${era})`)
      expect(await client.quote(`thrower-${era}`)).toBe(`quote for thrower-${era}: run 1`)
    }
    finally {
      await client.close()
    }
  })
})

describe('what a listener may not do', () => {
  it('is refused the spec\'s methods, bare names, a method twice and additions after an await, each naming the method and the fix', async () => {
    const client = await connect('modern', 'ada')
    try {
      const { notes, refusals } = await client.notes()
      expect(notes).toEqual(expect.arrayContaining(['legacy note', 'modern note']))
      expect(refusals).toEqual(expect.arrayContaining([
        expect.stringMatching(/"tools\/call", a method the MCP spec defines: the module serves those, behind its guards\. Name your own methods in a namespace of yours, e\.g\. "acme\/search"/),
        expect.stringMatching(/"whoami", a name without a namespace\. Name it "<your-namespace>\/<method>"/),
        expect.stringMatching(/"notifications\/cancelled", a method the MCP spec defines/),
        expect.stringMatching(/"skills\/list", a method the MCP spec defines/),
        expect.stringMatching(/"acme\/whoami", a method this server already serves/),
        expect.stringMatching(/"acme\/late", after the hook returned\. Add handlers synchronously, before any `await`/),
      ]))
      expect(refusals).toHaveLength(6)
    }
    finally {
      await client.close()
    }
  })
})
