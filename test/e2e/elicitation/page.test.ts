import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import { pageFieldName } from '../../../src/runtime/server/page/names'
import { answerQuestionPage, linkOf, openQuestionPage, questionOf } from '../../utils/question-page'
import { runsOf } from '../../utils/raw'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { until } from '../../utils/until'

/**
 * A client that cannot show a question (the v1 and v2 Clients declaring no elicitation, as Claude
 * Code and Claude Desktop do): the call ends with a link to the app's own page, the person answers
 * there, and the same call made again goes on from where it asked.
 */

// The configured public URL: links point here, never at the Host a request names. The tests
// reach the page on the fixture's real loopback address with the link's path.
const PUBLIC = 'http://mcp.test'

let app: RunningFixture
let shortApp: RunningFixture

beforeAll(async () => {
  ;[app, shortApp] = await Promise.all([
    startFixture('elicitation', { NUXT_MCP_PUBLIC_URL: PUBLIC }),
    // Questions that wait 1.5 s: long enough to be asked, short enough to watch a link expire.
    startFixture('elicitation', { NUXT_MCP_PUBLIC_URL: PUBLIC, NUXT_MCP_ELICITATION_TIMEOUT_MS: '1500' }),
  ])
})
afterAll(async () => {
  await Promise.all([app, shortApp].map(server => server?.stop()))
})

/** The page of `link` on the fixture's own loopback address. */
function openPage(server: RunningFixture, link: string, headers: Record<string, string> = {}) {
  return openQuestionPage(server.origin, link, headers)
}

function answerPage(server: RunningFixture, link: string, fields: Record<string, string | string[]>, options: { action?: string, headers?: Record<string, string>, csrf?: string } = {}) {
  return answerQuestionPage(server.origin, PUBLIC, link, fields, options)
}

describe('a question the client cannot show waits on the app\'s page', () => {
  it('legacy (v1 Client, no elicitation): the link, the page, and the call made again goes on', async () => {
    const client = await connectLegacy(app.url)
    try {
      const args = { label: 'page-legacy' }
      const first = await client.callTool({ name: 'ask_form', arguments: args })
      expect(first.isError).toBeFalsy()
      const link = linkOf(first)
      // The link's origin is the configured public URL, not the Host this request named (127.0.0.1).
      expect(link.startsWith(`${PUBLIC}/_mcp/question/`)).toBe(true)
      expect(textOf(first)).toContain(link)
      expect(textOf(first)).toContain('call ask_form again with exactly the same arguments')
      expect(questionOf(first)?.questions).toEqual([{ key: 'q0', mode: 'form', message: 'Your details' }])

      // A GET shows the question and never answers (link previews and models fetch links).
      const page = await openPage(app, link)
      expect(page.status).toBe(200)
      expect(page.html).toContain('Your details')
      expect(page.headers.get('referrer-policy')).toBe('no-referrer')
      expect(page.headers.get('content-security-policy')).toContain('frame-ancestors \'none\'')
      const again = await client.callTool({ name: 'ask_form', arguments: args })
      expect(linkOf(again)).toBe(link)

      const answered = await answerPage(app, link, { [pageFieldName(0, 0)]: 'Ada', [pageFieldName(0, 2)]: 'pro', [pageFieldName(0, 4)]: 'true' })
      expect(answered.status).toBe(200)
      expect(answered.html).toContain('data-notice="answered"')
      const done = await client.callTool({ name: 'ask_form', arguments: args })
      expect(questionOf(done)).toBeUndefined()
      expect(JSON.parse(textOf(done))).toEqual({ action: 'accept', content: { name: 'Ada', plan: 'pro', subscribe: true }, via: 'page' })

      // The binding ended with the call: the link is gone, and a later identical call starts afresh.
      expect((await openPage(app, link)).status).toBe(404)
      const fresh = await client.callTool({ name: 'ask_form', arguments: args })
      expect(linkOf(fresh)).not.toBe(link)
    }
    finally {
      await client.close()
    }
  })

  it('refuses a second answer, a forged link, a form without its token and another site\'s form, and loses nothing', async () => {
    const client = await connectLegacy(app.url)
    try {
      const args = { label: 'page-hostile' }
      const link = linkOf(await client.callTool({ name: 'ask_form', arguments: args }))
      const forged = `${link.slice(0, -4)}AAAA`
      expect((await openPage(app, forged)).status).toBe(404)
      const noToken = await answerPage(app, link, { [pageFieldName(0, 0)]: 'Eve', [pageFieldName(0, 2)]: 'free' }, { csrf: 'not-the-token' })
      expect(noToken.status).toBe(403)
      expect(noToken.html).toContain('_csrf')
      const crossSite = await answerPage(app, link, { [pageFieldName(0, 0)]: 'Eve', [pageFieldName(0, 2)]: 'free' }, { headers: { 'origin': 'https://evil.example', 'sec-fetch-site': 'cross-site' } })
      expect(crossSite.status).toBe(403)
      // An invalid answer is shown again with what was wrong; nothing is kept.
      const invalid = await answerPage(app, link, { [pageFieldName(0, 0)]: 'A', [pageFieldName(0, 2)]: 'gold' })
      expect(invalid.status).toBe(422)

      expect((await answerPage(app, link, { [pageFieldName(0, 0)]: 'Grace', [pageFieldName(0, 2)]: 'free' })).status).toBe(200)
      const twice = await answerPage(app, link, { [pageFieldName(0, 0)]: 'Mallory', [pageFieldName(0, 2)]: 'pro' }, { csrf: 'x' })
      expect(twice.html).toContain('data-notice="answered"')
      const done = await client.callTool({ name: 'ask_form', arguments: args })
      expect(JSON.parse(textOf(done))).toMatchObject({ action: 'accept', content: { name: 'Grace', plan: 'free' } })
    }
    finally {
      await client.close()
    }
  })

  it('keeps once() steps and answers across the calls: nothing runs or is asked twice', async () => {
    const client = await connectLegacy(app.url)
    try {
      const before = await runsOf(app, 'ask_once:step')
      const first = await client.callTool({ name: 'ask_once', arguments: {} })
      const link = linkOf(first)
      expect(questionOf(first)?.questions.map(question => question.message)).toEqual(['First?'])
      await answerPage(app, link, { [pageFieldName(0, 0)]: 'one' })
      const second = await client.callTool({ name: 'ask_once', arguments: {} })
      // The same page asks the next question.
      expect(linkOf(second)).toBe(link)
      expect(questionOf(second)?.questions.map(question => question.message)).toEqual(['Second?'])
      await answerPage(app, link, { [pageFieldName(0, 0)]: 'two' })
      const done = await client.callTool({ name: 'ask_once', arguments: {} })
      expect(textOf(done)).toMatch(/^ticket \d+: accept\/accept$/)
      expect(await runsOf(app, 'ask_once:step')).toBe(before + 1)
    }
    finally {
      await client.close()
    }
  })

  it('a tool with an outputSchema: the question rides in _meta of an isError result, which the v1 and v2 Clients accept', async () => {
    const legacy = await connectLegacy(app.url, { requestInit: { headers: { 'x-user': 'ada' } } })
    const modern = await connectModern(app.url, { requestInit: { headers: { 'x-user': 'ada' } } })
    try {
      for (const [client, service] of [[legacy, 'api'], [modern, 'web']] as const) {
        const first = await client.callTool({ name: 'ask_typed', arguments: { service } })
        expect(first.isError).toBe(true)
        expect(first.structuredContent).toBeUndefined()
        const link = linkOf(first)
        // Bound to the principal: the page is shown to that person only (the app's mcp:auth hook
        // names the person in the browser, here through the same test header).
        expect((await openPage(app, link)).status).toBe(401)
        expect((await openPage(app, link, { 'x-user': 'mallory' })).status).toBe(401)
        expect((await answerPage(app, link, { [pageFieldName(0, 0)]: 'beta' }, { headers: { 'x-user': 'ada' } })).status).toBe(200)
        const done = await client.callTool({ name: 'ask_typed', arguments: { service } })
        expect(done.structuredContent).toEqual({ service, channel: 'beta', via: 'page' })
      }
    }
    finally {
      await Promise.all([legacy.close(), modern.close()])
    }
  })

  it('an anonymous 2026-07-28 caller cannot be told apart: no page, the spec\'s -32021 as before', async () => {
    const client = await connectModern(app.url)
    try {
      await expect(client.callTool({ name: 'ask_form', arguments: { label: 'page-anonymous' } })).rejects.toThrow(/elicitation/i)
    }
    finally {
      await client.close()
    }
  })

  it('two legacy sessions with the same arguments get two links: one never sees the other\'s answer', async () => {
    const [a, b] = await Promise.all([connectLegacy(app.url), connectLegacy(app.url)])
    try {
      const args = { label: 'page-two-callers' }
      const linkA = linkOf(await a.callTool({ name: 'ask_form', arguments: args }))
      await answerPage(app, linkA, { [pageFieldName(0, 0)]: 'Alice', [pageFieldName(0, 2)]: 'pro' })
      const resultB = await b.callTool({ name: 'ask_form', arguments: args })
      expect(linkOf(resultB)).not.toBe(linkA)
      expect(JSON.parse(textOf(await a.callTool({ name: 'ask_form', arguments: args })))).toMatchObject({ content: { name: 'Alice' } })
    }
    finally {
      await Promise.all([a.close(), b.close()])
    }
  })

  it('a consent question (confirm()) is not put on a link-only page: without a principal it stays unsupported', async () => {
    const anonymous = await connectLegacy(app.url)
    const signedIn = await connectLegacy(app.url, { requestInit: { headers: { 'x-user': 'ada' } } })
    try {
      const refused = await anonymous.callTool({ name: 'ask_confirm', arguments: {} })
      expect(refused.isError).toBe(true)
      expect(textOf(refused)).toMatch(/did not declare the elicitation form mode/)
      // With a principal the page asks the person, and an unticked box says "no".
      const link = linkOf(await signedIn.callTool({ name: 'ask_confirm', arguments: {} }))
      expect((await answerPage(app, link, {}, { headers: { 'x-user': 'ada' } })).status).toBe(200)
      expect(textOf(await signedIn.callTool({ name: 'ask_confirm', arguments: {} }))).toBe('not confirmed')
    }
    finally {
      await Promise.all([anonymous.close(), signedIn.close()])
    }
  })

  it('a link expires with its question\'s timeout', async () => {
    const client = await connectLegacy(shortApp.url)
    try {
      const link = linkOf(await client.callTool({ name: 'ask_form', arguments: { label: 'page-expiry' } }))
      expect((await openPage(shortApp, link)).status).toBe(200)
      await until(async () => (await openPage(shortApp, link)).status === 404, 'expiry of the link', 10_000, 100)
      const posted = await answerPage(shortApp, link, {}, { csrf: 'x' }).catch(() => ({ status: 404, html: '' }))
      expect(posted.status).toBe(404)
    }
    finally {
      await client.close()
    }
  })

  it('the token never reaches the server\'s log', () => {
    const output = app.output()
    expect(output).not.toMatch(/_mcp\/question\/[\w-]{20,}/)
  })
})
