import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { pageHeaders, renderQuestionPage } from '../../../src/runtime/server/page/render'
import { PAGE_STYLESHEET, PAGE_STYLESHEET_HASH } from '../../../src/runtime/server/page/style'

describe('the page\'s headers', () => {
  it('allow no script, no load, forms to this origin only, no framing, no referrer, no cache', () => {
    expect(pageHeaders()).toEqual({
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'none'; style-src '${PAGE_STYLESHEET_HASH}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Cache-Control': 'no-store',
    })
  })

  it('allow the page\'s stylesheet by its hash (change the hash with the stylesheet)', () => {
    const hash = `sha256-${createHash('sha256').update(PAGE_STYLESHEET).digest('base64')}`
    expect(PAGE_STYLESHEET_HASH, `src/runtime/server/page/style.ts: set PAGE_STYLESHEET_HASH to '${hash}'`).toBe(hash)
    const html = renderQuestionPage({ serverName: 'Acme', tool: 't', arguments: {}, questions: [], csrf: 'x', expiresAt: 0, now: 0 })
    expect(html.match(/<style>/g)).toHaveLength(1)
    expect(html).toContain(`<style>${PAGE_STYLESHEET}</style>`)
  })
})
