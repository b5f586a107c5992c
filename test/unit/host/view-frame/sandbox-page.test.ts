import { describe, expect, it } from 'vitest'
import { LEADING_DOCTYPE, SANDBOX_PAGE } from '../../../../src/runtime/host/apps/sandbox-page'

// Where the sandbox page puts a view's CSP <meta>: right after what LEADING_DOCTYPE matches, else
// first. What it matches must be what a browser reads as the document's start: only HTML's five
// whitespace characters, then the doctype. Anything else it skipped would run, or open <body>
// (where a CSP <meta> is ignored), before the policy. test/e2e/host/hostile-views.test.ts runs
// the same views in Chromium.

/** The text the policy would follow in `html`: the match, or nothing (the policy goes first). */
const leadOf = (html: string) => LEADING_DOCTYPE.exec(html)?.[0] ?? ''

describe('the sandbox page\'s reading of a view\'s leading doctype', () => {
  it('is the regex the page itself runs', () => {
    expect(SANDBOX_PAGE).toContain(`const lead = ${String(LEADING_DOCTYPE)}.exec(html)`)
  })

  it('keeps a doctype first, after HTML whitespace only (quirks mode otherwise)', () => {
    expect(leadOf('<!doctype html><html><head></head></html>')).toBe('<!doctype html>')
    expect(leadOf('<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN"><p>x</p>')).toBe('<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN">')
    expect(leadOf('\n\t\r\f <!doctype html><p>x</p>')).toBe('\n\t\r\f <!doctype html>')
  })

  it('skips no comment: "<!-->" and "--!>" end one in a browser, and a script after them would run first', () => {
    expect(leadOf('<!--><script>fetch("//evil")</script><!-- --><!doctype html>')).toBe('')
    expect(leadOf('<!-- a --!><script>fetch("//evil")</script><!-- --><!doctype html>')).toBe('')
    expect(leadOf('<!-- a real comment --><!doctype html>')).toBe('')
  })

  it('skips no character HTML reads as text (it opens <body>, where a CSP <meta> is ignored)', () => {
    for (const text of ['\u00A0', '\uFEFF', '\v', '\u2028', '\u3000']) {
      expect(leadOf(`${text}<!doctype html><script>fetch("//evil")</script>`), JSON.stringify(text)).toBe('')
    }
  })

  it('puts the policy first when there is no doctype, or when it is not the start', () => {
    expect(leadOf('<script>fetch("//evil")</script><!doctype html>')).toBe('')
    expect(leadOf('<header><h1>x</h1></header><head></head>')).toBe('')
    expect(leadOf('')).toBe('')
  })
})
