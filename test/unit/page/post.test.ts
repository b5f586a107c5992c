import { describe, expect, it } from 'vitest'
import { checkPagePost, sameSecret } from '../../../src/runtime/server/page/post'
import type { McpPagePost } from '../../../src/runtime/server/page/post'

// Whether the page's route may read a POST at all: a form's body, from the page itself, with the
// page's token. The browser's side of it (what Chromium really sends) is in browser.test.ts.

const OK: McpPagePost = { contentType: 'application/x-www-form-urlencoded', origin: 'null', secFetchSite: 'same-origin', expectedOrigin: 'https://app.example.com', token: 'tok-123', expectedToken: 'tok-123' }

describe('checkPagePost', () => {
  it('lets the page\'s own form through, with Origin null (what no-referrer makes a browser send) or the app\'s origin', () => {
    expect(checkPagePost(OK)).toBeUndefined()
    expect(checkPagePost({ ...OK, origin: 'https://app.example.com', contentType: 'application/x-www-form-urlencoded;charset=UTF-8' })).toBeUndefined()
    // A client without fetch metadata (curl, an older browser): the token decides.
    expect(checkPagePost({ ...OK, origin: undefined, secFetchSite: undefined })).toBeUndefined()
  })

  it('refuses another site, another origin, a body that is not a form, and a wrong or missing token, naming what is wrong', () => {
    expect(checkPagePost({ ...OK, secFetchSite: 'cross-site' })).toEqual({ status: 403, error: 'The answer came from another site (Sec-Fetch-Site: cross-site): answer on the page itself.' })
    expect(checkPagePost({ ...OK, secFetchSite: 'same-site' })?.status).toBe(403)
    expect(checkPagePost({ ...OK, origin: 'https://evil.example' })).toEqual({ status: 403, error: 'The answer came from "https://evil.example", not from this app\'s origin: answer on the page itself.' })
    expect(checkPagePost({ ...OK, contentType: 'application/json' })).toEqual({ status: 415, error: 'The answer must be sent by the page\'s form (Content-Type: application/x-www-form-urlencoded), not "application/json".' })
    expect(checkPagePost({ ...OK, contentType: undefined })?.status).toBe(415)
    for (const token of [null, undefined, '', 'tok-12', 'tok-1234', 'TOK-123']) {
      expect(checkPagePost({ ...OK, token }), String(token)).toEqual({ status: 403, error: 'The form\'s _csrf field is missing or not this page\'s: open the link again and answer there.' })
    }
  })

  it('never takes an empty expected token as a match', () => {
    expect(sameSecret('', '')).toBe(false)
    expect(sameSecret('a', 'a')).toBe(true)
    expect(sameSecret('ab', 'a')).toBe(false)
  })
})
