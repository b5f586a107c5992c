import { describe, expect, it } from 'vitest'
import { describePageDeadline, pageNoticeStatus, renderPageNotice, renderQuestionPage } from '../../../src/runtime/server/page/render'
import type { McpPageQuestion, McpPageView } from '../../../src/runtime/server/page/render'
import { escapeHtml } from '../../../src/runtime/server/page/html'

// The question page as HTML: everything from the question, the arguments and the server's name is
// text, every field kind of the spec is drawn with its HTML constraints, a refused submission is
// shown again with its messages and what was typed, and the page says when the link stops working.

const NOW = Date.UTC(2026, 11, 7, 23, 15)

function viewOf(questions: McpPageQuestion[], extra: Partial<McpPageView> = {}): McpPageView {
  return { serverName: 'Acme', tool: 'deploy', arguments: { env: 'prod' }, questions, csrf: 'tok-123', expiresAt: NOW + 15 * 60_000, now: NOW, ...extra }
}

function form(properties: Record<string, unknown>, required: string[] = [], extra: Partial<McpPageQuestion> = {}): McpPageQuestion {
  return { key: 'k', mode: 'form', message: 'Tell us', requestedSchema: { type: 'object', properties, required }, ...extra }
}

/** The opening tag of the element with `id`, to check its attributes. */
function tagWithId(html: string, id: string): string {
  const found = new RegExp(`<(?:input|select|fieldset)[^>]*\\bid="${id}"[^>]*>`).exec(html)
  if (!found) throw new Error(`no element with id="${id}" in the page`)
  return found[0]
}

const HOSTILE = '<script>alert(1)</script>"\'&'
const ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;'

describe('the question page', () => {
  it('is a whole document with one post form to the same URL, the CSRF field and the two buttons', () => {
    const html = renderQuestionPage(viewOf([form({ name: { type: 'string' } })]))
    expect(html.startsWith('<!doctype html>')).toBe(true)
    expect(html.match(/<form\b[^>]*>/g)).toEqual(['<form method="post">'])
    expect(html).not.toMatch(/\bnovalidate\b/)
    expect(html).toContain('<input type="hidden" name="_csrf" value="tok-123">')
    expect(html).toMatch(/<button type="submit" class="primary" name="_action" value="accept">Send answer<\/button>/)
    expect(html).toMatch(/<button type="submit" formnovalidate name="_action" value="decline">Decline<\/button>/)
    expect(html.indexOf('value="accept"')).toBeLessThan(html.indexOf('value="decline"'))
  })

  it('runs no script and loads nothing: no script tag, no event handler, no external URL', () => {
    const html = renderQuestionPage(viewOf([form({ name: { type: 'string', title: 'Name' } }), { key: 'u', mode: 'url', message: 'Connect', url: 'https://auth.example.com/x' }]))
    expect(html).not.toMatch(/<script|\son[a-z]+=|<link\b|<img\b|<iframe\b|\bsrc=/i)
    expect(html).not.toMatch(/\bstyle="/)
  })

  it('shows every string from the question, the arguments and the names as text only', () => {
    const html = renderQuestionPage(viewOf([
      form({ [HOSTILE]: { type: 'string', title: HOSTILE, description: HOSTILE, default: HOSTILE, enum: undefined }, pick: { type: 'string', enum: [HOSTILE], enumNames: [HOSTILE] } }, [], { key: HOSTILE, message: HOSTILE, problem: HOSTILE }),
    ], { serverName: HOSTILE, tool: HOSTILE, arguments: { [HOSTILE]: HOSTILE }, csrf: '"><script>x</script>' }))
    expect(html).not.toContain('<script>')
    expect(html).not.toContain('"><script')
    expect(html).toContain(`<title>${ESCAPED}: a question for you</title>`)
    expect(html).toContain(`<code>${ESCAPED}</code>`)
    expect(html).toContain(`<p class="message" id="q0-message">${ESCAPED}</p>`)
    expect(html).toContain(`Your last answer was not accepted: ${ESCAPED}`)
    expect(html).toContain(`value="${ESCAPED}"`)
    expect(html).toContain(`<option value="${ESCAPED}">${ESCAPED}</option>`)
    // The arguments are JSON, escaped once more for HTML.
    expect(html).toContain(escapeHtml(JSON.stringify({ [HOSTILE]: HOSTILE }, null, 2)))
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"')
  })

  it('names every input by position, whatever the question key and field name', () => {
    const html = renderQuestionPage(viewOf([
      // As a schema arrives (JSON): `__proto__` is an own key, not the prototype.
      form(JSON.parse('{ "a.b": { "type": "string" }, "__proto__": { "type": "boolean" } }'), [], { key: '__proto__' }),
      form({ 'line\nbreak': { type: 'number' } }, [], { key: 'q0.f0' }),
    ]))
    expect([...html.matchAll(/<input[^>]*\bname="([^"]+)"/g)].map(match => match[1])).toEqual(['_csrf', 'q0.f0', 'q0.f1', 'q1.f0'])
  })

  it('draws text fields with their HTML constraints and input types', () => {
    const html = renderQuestionPage(viewOf([form({
      name: { type: 'string', title: 'Full name', minLength: 2, maxLength: 40, description: 'As on your card' },
      email: { type: 'string', format: 'email' },
      site: { type: 'string', format: 'uri' },
      day: { type: 'string', format: 'date' },
      at: { type: 'string', format: 'date-time', default: '2026-03-01T09:30:00Z' },
    }, ['name', 'email'])]))
    expect(tagWithId(html, 'q0-f0')).toBe('<input type="text" id="q0-f0" name="q0.f0" value="" required minlength="2" maxlength="40" aria-describedby="q0-f0-hint">')
    expect(html).toContain('<label for="q0-f0">Full name<span class="required" aria-hidden="true"> *</span><span class="visually-hidden"> (required)</span></label>')
    expect(html).toContain('<p class="hint" id="q0-f0-hint">As on your card</p>')
    expect(tagWithId(html, 'q0-f1')).toMatch(/^<input type="email" [^>]*required/)
    expect(tagWithId(html, 'q0-f2')).toMatch(/^<input type="url" /)
    expect(tagWithId(html, 'q0-f3')).toMatch(/^<input type="date" /)
    // No script on the page to learn the person's zone: the default is shown in UTC, and it says so.
    expect(tagWithId(html, 'q0-f4')).toBe('<input type="datetime-local" id="q0-f4" name="q0.f4" value="2026-03-01T09:30">')
    expect(html).toContain('Time in UTC')
    expect(html).toContain('Fields marked')
  })

  it('draws numbers with bounds and step, integers as whole numbers, defaults filled in', () => {
    const html = renderQuestionPage(viewOf([form({
      age: { type: 'integer', minimum: 0, maximum: 130, default: 36 },
      ratio: { type: 'number', minimum: -1.5 },
    }, ['age'])]))
    expect(tagWithId(html, 'q0-f0')).toBe('<input type="number" id="q0-f0" name="q0.f0" value="36" required min="0" max="130" step="1" inputmode="numeric">')
    expect(tagWithId(html, 'q0-f1')).toBe('<input type="number" id="q0-f1" name="q0.f1" value="" min="-1.5" step="any" inputmode="decimal">')
  })

  it('draws a boolean as a checkbox that is never required (unticked is "no"), ticked by a true default', () => {
    const html = renderQuestionPage(viewOf([form({ ok: { type: 'boolean', title: 'Yes, deploy' }, news: { type: 'boolean', default: true } }, ['ok'])]))
    expect(tagWithId(html, 'q0-f0')).toBe('<input type="checkbox" id="q0-f0" name="q0.f0" value="true">')
    expect(tagWithId(html, 'q0-f1')).toBe('<input type="checkbox" id="q0-f1" name="q0.f1" value="true" checked>')
  })

  it('draws enums as selects with their titles (enumNames, oneOf) and multi-selects as checkboxes', () => {
    const html = renderQuestionPage(viewOf([form({
      plan: { type: 'string', enum: ['free', 'pro'], enumNames: ['Free', 'Pro'], default: 'pro' },
      tier: { type: 'string', oneOf: [{ const: 'a', title: 'Tier A' }, { const: 'b', title: 'Tier B' }] },
      os: { type: 'array', items: { type: 'string', enum: ['linux', 'macos'] }, default: ['macos'] },
      tags: { type: 'array', items: { anyOf: [{ const: 'x', title: 'Ex' }, { const: 'y', title: 'Why' }] } },
    }, ['tier'])]))
    expect(html).toContain('<select id="q0-f0" name="q0.f0"><option value="">(none)</option><option value="free">Free</option><option value="pro" selected>Pro</option></select>')
    expect(html).toContain('<select id="q0-f1" name="q0.f1" required><option value="" disabled selected>Choose…</option><option value="a">Tier A</option><option value="b">Tier B</option></select>')
    expect(html).toContain('<label class="choice"><input type="checkbox" id="q0-f2-0" name="q0.f2" value="linux"> linux</label>')
    expect(html).toContain('<label class="choice"><input type="checkbox" id="q0-f2-1" name="q0.f2" value="macos" checked> macos</label>')
    expect(html).toContain('<input type="checkbox" id="q0-f3-1" name="q0.f3" value="y"> Why')
  })

  it('shows the server\'s messages next to their fields, with a count, and keeps what was typed', () => {
    const html = renderQuestionPage(viewOf([form({
      email: { type: 'string', format: 'email' },
      news: { type: 'boolean', default: true },
      os: { type: 'array', items: { type: 'string', enum: ['linux', 'macos'] }, default: ['linux'] },
      plan: { type: 'string', enum: ['free', 'pro'] },
    }, ['email'])], {
      errors: { k: { email: 'Enter a valid email address, like name@example.com.' } },
      values: { k: { email: 'ada@', os: ['macos'], plan: 'pro' } },
    }))
    expect(html).toContain('One field needs your attention.')
    expect(tagWithId(html, 'q0-f0')).toBe('<input type="email" id="q0-f0" name="q0.f0" value="ada@" required aria-describedby="q0-f0-error" aria-invalid="true">')
    expect(html).toContain('<p class="error" id="q0-f0-error">Enter a valid email address, like name@example.com.</p>')
    // Sent unticked: shown unticked again, whatever the default.
    expect(tagWithId(html, 'q0-f1')).toBe('<input type="checkbox" id="q0-f1" name="q0.f1" value="true">')
    expect(html).toContain('value="linux"> linux')
    expect(html).toContain('value="macos" checked> macos')
    expect(html).toContain('<option value="pro" selected>pro</option>')
  })

  it('shows a message about the question as a whole, and says plainly when it asks for consent', () => {
    const html = renderQuestionPage(viewOf([form({ ok: { type: 'boolean' } }, [], { consent: true })], { errors: { k: { '': 'Unknown _action "x": send accept or decline.' } } }))
    expect(html).toContain('<p class="problem" role="alert">Unknown _action &quot;x&quot;: send accept or decline.</p>')
    expect(html).toContain('This asks for your consent.')
    expect(html).toContain('the assistant cannot answer it for you')
  })

  it('offers only Decline for a question whose schema the spec does not allow', () => {
    const html = renderQuestionPage(viewOf([form({ nested: { type: 'object' } })]))
    expect(html).toContain('This question cannot be shown here: Field &quot;nested&quot;: type &quot;object&quot; is not string')
    expect(html).not.toContain('value="accept"')
    expect(html).toContain('value="decline"')
  })

  it('shows a URL question\'s link (new tab, no opener, no referrer) and its host, with "I have done this"', () => {
    const html = renderQuestionPage(viewOf([{ key: 'u', mode: 'url', message: 'Connect your account', url: 'http://auth.example.com/connect?state="x"' }]))
    expect(html).toContain('<strong class="host">auth.example.com</strong>')
    expect(html).toContain('<a href="http://auth.example.com/connect?state=%22x%22" target="_blank" rel="noopener noreferrer"><code>http://auth.example.com/connect?state=%22x%22</code></a>')
    expect(html).toContain('The link is not encrypted (http).')
    expect(html).toContain('value="accept">I have done this</button>')
  })

  it('never links a URL question to anything but http(s) without credentials', () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,<script>1</script>', 'https://user:pw@example.com/', 'not a url', ' javascript:alert(1)']) {
      const html = renderQuestionPage(viewOf([{ key: 'u', mode: 'url', message: 'Go', url }]))
      expect(html, url).not.toContain('<a ')
      expect(html, url).not.toMatch(/javascript:|data:text/)
      expect(html, url).toContain('This link cannot be opened')
      expect(html, url).not.toContain('value="accept"')
    }
  })

  it('states the deadline in UTC and how far off it is, as of rendering', () => {
    const html = renderQuestionPage(viewOf([form({})]))
    expect(html).toContain('<time datetime="2026-12-07T23:30:00.000Z">Answer before Mon, 07 Dec 2026 23:30 UTC (in about 15 minutes). After that, this link no longer works.</time>')
    expect(describePageDeadline(NOW + 20_000, NOW)).toContain('(in less than a minute)')
    expect(describePageDeadline(NOW + 5 * 3_600_000, NOW)).toContain('(in about 5 hours)')
    expect(describePageDeadline(NOW + 3 * 86_400_000, NOW)).toContain('(in about 3 days)')
    expect(describePageDeadline(NOW - 1, NOW)).toContain('(the time to answer has run out)')
  })

  it('cuts very long arguments', () => {
    const html = renderQuestionPage(viewOf([form({})], { arguments: { blob: 'x'.repeat(10_000) } }))
    expect(html).toMatch(/… \(\d+ more characters not shown\)/)
    expect(html.length).toBeLessThan(12_000)
  })
})

describe('the notice pages', () => {
  it('says what happens after an answer: back to the chat, where the assistant calls the tool again', () => {
    const html = renderPageNotice('answered', 'Your answer to "deploy" was sent.', 'Acme')
    expect(html).toContain('Go back to the chat. The assistant calls the tool again')
    expect(html).toContain('data-notice="answered"')
    expect(html).toContain('Your answer to &quot;deploy&quot; was sent.')
    expect(html).not.toContain('<form')
  })

  it('escapes the detail and the server name, and offers only a safe link', () => {
    const html = renderPageNotice('sign-in', HOSTILE, HOSTILE, { href: '/auth/login?next=/p/x&y=1', label: HOSTILE })
    expect(html).not.toContain('<script>')
    expect(html).toContain('<a class="button primary" href="/auth/login?next=/p/x&amp;y=1" rel="noopener noreferrer">')
    for (const href of ['javascript:alert(1)', '//evil.example/', '/\\evil.example', 'data:text/html,x']) {
      expect(renderPageNotice('sign-in', '', 'Acme', { href, label: 'Sign in' }), href).not.toContain('<a ')
    }
    expect(renderPageNotice('sign-in', '', 'Acme', { href: 'https://login.example.com/authorize?x=1', label: 'Sign in' })).toContain('href="https://login.example.com/authorize?x=1"')
  })

  it('has a page and a status for every outcome', () => {
    const kinds = ['answered', 'declined', 'expired', 'unknown', 'refused', 'sign-in'] as const
    expect(kinds.map(pageNoticeStatus)).toEqual([200, 200, 410, 404, 403, 401])
    for (const kind of kinds) expect(renderPageNotice(kind, '', 'Acme')).toContain(`data-notice="${kind}"`)
  })
})
