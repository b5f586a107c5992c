import { describe, expect, it } from 'vitest'
import { readableLabel, readRequestedSchema } from '../../../src/runtime/chat/elicitation/fields'
import { describeDeadline, formatTimeLeft } from '../../../src/runtime/chat/elicitation/deadline'
import { checkHostUrl, readHostPageConfig } from '../../../src/runtime/chat/elicitation/host-urls'
import type { McpHostUrlContext } from '../../../src/runtime/chat/elicitation/host-urls'
import type { McpFormField } from '../../../src/runtime/chat/elicitation/fields'
import { matchesFormat } from '../../../src/runtime/chat/elicitation/formats'
import { validateContent } from '../../../src/runtime/chat/elicitation/validate'
import { collectAnswer, fromLocalDateTime, initialValues, inputTypeOf, toLocalDateTime } from '../../../src/runtime/chat/elicitation/values'
import { describeUrlTarget } from '../../../src/runtime/chat/elicitation/url'
import { toElicitationRequest } from '../../../src/runtime/chat/elicitation/request'

// The form renderer's logic, for every primitive schema the MCP spec (2025-11-25) allows:
// schema → field descriptors → initial values → typed content → validation messages.

function fieldsOf(properties: Record<string, unknown>, required: string[] = []): McpFormField[] {
  const read = readRequestedSchema({ type: 'object', properties, required })
  if (!read.ok) throw new Error(read.error)
  return read.fields
}

function one(schema: Record<string, unknown>, required = false): McpFormField {
  const [field] = fieldsOf({ f: schema }, required ? ['f'] : [])
  if (!field) throw new Error('no field')
  return field
}

describe('readRequestedSchema: every spec variant', () => {
  it('string: title, description, lengths, formats, default', () => {
    expect(one({ type: 'string', title: 'Name', description: 'Your full name', minLength: 1, maxLength: 50, default: 'Ada' }, true))
      .toEqual({ name: 'f', label: 'Name', description: 'Your full name', required: true, kind: 'text', minLength: 1, maxLength: 50, default: 'Ada' })
    for (const format of ['email', 'uri', 'date', 'date-time'] as const) {
      const field = one({ type: 'string', format })
      expect(field).toMatchObject({ kind: 'text', format, label: 'F', required: false })
      if (field.kind === 'text') expect(inputTypeOf(field)).toBe({ 'email': 'email', 'uri': 'url', 'date': 'date', 'date-time': 'datetime-local' }[format])
    }
  })

  it('number and integer with bounds and defaults', () => {
    expect(one({ type: 'number', minimum: 0.5, maximum: 9.5, default: 1.5 })).toMatchObject({ kind: 'number', integer: false, minimum: 0.5, maximum: 9.5, default: 1.5 })
    expect(one({ type: 'integer', minimum: 13, maximum: 130 })).toMatchObject({ kind: 'number', integer: true, minimum: 13, maximum: 130 })
    // A fractional default cannot pre-fill an integer field.
    expect(one({ type: 'integer', default: 1.5 })).not.toHaveProperty('default')
  })

  it('boolean with a default', () => {
    expect(one({ type: 'boolean', title: 'Subscribe', default: true })).toMatchObject({ kind: 'boolean', label: 'Subscribe', default: true })
  })

  it('single select: enum, titled oneOf, legacy enumNames', () => {
    expect(one({ type: 'string', enum: ['a', 'b'], default: 'b' })).toMatchObject({ kind: 'select', options: [{ value: 'a', label: 'a' }, { value: 'b', label: 'b' }], default: 'b' })
    expect(one({ type: 'string', oneOf: [{ const: 'stable', title: 'Stable' }, { const: 'beta', title: 'Beta' }] }))
      .toMatchObject({ kind: 'select', options: [{ value: 'stable', label: 'Stable' }, { value: 'beta', label: 'Beta' }] })
    expect(one({ type: 'string', enum: ['x', 'y'], enumNames: ['Ex', 'Why'] })).toMatchObject({ options: [{ value: 'x', label: 'Ex' }, { value: 'y', label: 'Why' }] })
    // A default outside the options is not pre-selected.
    expect(one({ type: 'string', enum: ['a'], default: 'z' })).not.toHaveProperty('default')
  })

  it('multi select: enum items, titled anyOf items, counts and default', () => {
    expect(one({ type: 'array', items: { type: 'string', enum: ['linux', 'macos'] }, minItems: 1, maxItems: 2, default: ['linux'] }))
      .toMatchObject({ kind: 'multiselect', minItems: 1, maxItems: 2, default: ['linux'], options: [{ value: 'linux', label: 'linux' }, { value: 'macos', label: 'macos' }] })
    expect(one({ type: 'array', items: { anyOf: [{ const: 'r', title: 'Red' }] } })).toMatchObject({ kind: 'multiselect', options: [{ value: 'r', label: 'Red' }] })
  })

  it('refuses what the spec does not allow, naming the field', () => {
    expect(readRequestedSchema({ type: 'object', properties: { a: { type: 'object' } } })).toEqual({ ok: false, error: expect.stringContaining('Field "a"') })
    expect(readRequestedSchema({ type: 'object', properties: { a: { type: 'string', format: 'ipv4' } } })).toEqual({ ok: false, error: expect.stringContaining('ipv4') })
    expect(readRequestedSchema({ type: 'object', properties: { a: { type: 'array', items: { type: 'number' } } } })).toMatchObject({ ok: false })
    expect(readRequestedSchema({ type: 'string' })).toMatchObject({ ok: false })
    expect(readRequestedSchema({ type: 'object' })).toEqual({ ok: true, fields: [] })
  })
})

describe('formats', () => {
  it.each([
    ['email', 'ada@example.com', true], ['email', 'ada@', false], ['email', 'a b@example.com', false],
    ['uri', 'https://example.com/x?y=1', true], ['uri', 'mailto:a@b.co', true], ['uri', 'example.com', false],
    ['date', '2024-02-29', true], ['date', '2026-02-29', false], ['date', '2026-13-01', false],
    ['date-time', '2026-03-01T09:30:00Z', true], ['date-time', '2026-03-01T09:30:00.123+02:00', true], ['date-time', '2026-03-01 09:30', false], ['date-time', '2026-03-01T24:00:00Z', false],
  ] as const)('%s %s → %s', (format, value, ok) => {
    expect(matchesFormat(format, value)).toBe(ok)
  })
})

describe('validateContent (shared by the form and the respond endpoint)', () => {
  const fields = fieldsOf({
    name: { type: 'string', minLength: 2, maxLength: 5 },
    email: { type: 'string', format: 'email' },
    age: { type: 'integer', minimum: 13, maximum: 130 },
    score: { type: 'number', maximum: 1 },
    ok: { type: 'boolean' },
    channel: { type: 'string', oneOf: [{ const: 'stable', title: 'Stable' }] },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 },
  }, ['name', 'email', 'channel'])

  it('accepts a matching answer', () => {
    const content = { name: 'Ada', email: 'ada@example.com', age: 36, score: 0.5, ok: true, channel: 'stable', tags: ['a'] }
    expect(validateContent(fields, content)).toEqual({ ok: true, content })
  })

  it('names every field that does not match, with a message', () => {
    const result = validateContent(fields, { name: 'A', email: 'nope', age: 12.5, score: 2, ok: 'yes', channel: 'nightly', tags: ['a', 'b', 'c'], extra: 1 })
    expect(result).toEqual({
      ok: false,
      errors: {
        name: 'Enter at least 2 characters.',
        email: 'Enter a valid email address, like name@example.com.',
        age: 'Enter a whole number.',
        score: 'Enter a number of at most 1.',
        ok: 'Expected true or false.',
        channel: 'Choose one of the listed options.',
        tags: 'Choose at most 2 options.',
        extra: 'This field is not part of the form.',
      },
    })
  })

  it('reports missing required fields, bounds, unknown options and wrong types', () => {
    expect(validateContent(fields, {})).toEqual({ ok: false, errors: { name: 'This field is required.', email: 'This field is required.', channel: 'Choose an option.' } })
    const base = { name: 'Ada', email: 'ada@example.com', channel: 'stable' }
    expect(validateContent(fields, { ...base, age: 200 })).toMatchObject({ errors: { age: 'Enter a number of at most 130.' } })
    expect(validateContent(fields, { ...base, age: 3 })).toMatchObject({ errors: { age: 'Enter a number of at least 13.' } })
    expect(validateContent(fields, { ...base, tags: [] })).toMatchObject({ errors: { tags: 'Choose at least 1 option.' } })
    expect(validateContent(fields, { ...base, tags: ['z'] })).toMatchObject({ errors: { tags: 'Choose only from the listed options.' } })
    expect(validateContent(fields, { ...base, name: 'Ada Lovelace' })).toMatchObject({ errors: { name: 'Enter at most 5 characters.' } })
    expect(validateContent(fields, { ...base, age: '36' })).toMatchObject({ errors: { age: 'Enter a number.' } })
    expect(validateContent(fields, [])).toMatchObject({ ok: false })
  })

  it('counts code points, as JSON Schema does', () => {
    expect(validateContent(fieldsOf({ e: { type: 'string', maxLength: 2 } }), { e: '👍👍' })).toMatchObject({ ok: true })
  })
})

describe('form values → content', () => {
  const fields = fieldsOf({
    name: { type: 'string', title: 'Full name', minLength: 1 },
    email: { type: 'string', format: 'email' },
    age: { type: 'integer', minimum: 13, maximum: 130 },
    newsletter: { type: 'boolean', default: false },
    channel: { type: 'string', enum: ['stable', 'beta'], default: 'beta' },
    platforms: { type: 'array', items: { type: 'string', enum: ['linux', 'macos'] }, default: ['linux'] },
    when: { type: 'string', format: 'date-time' },
  }, ['name', 'email'])

  it('pre-fills defaults and leaves the rest empty', () => {
    expect(initialValues(fields)).toEqual({ name: '', email: '', age: '', newsletter: false, channel: 'beta', platforms: ['linux'], when: '' })
  })

  it('types the inputs: numbers parsed, empty optional fields left out, date-time in RFC 3339', () => {
    const values = { ...initialValues(fields), name: 'Ada', email: 'ada@example.com', age: '36', newsletter: true, when: '2026-03-01T09:30' }
    const result = collectAnswer(fields, values)
    expect(result).toEqual({ ok: true, content: { name: 'Ada', email: 'ada@example.com', age: 36, newsletter: true, channel: 'beta', platforms: ['linux'], when: new Date('2026-03-01T09:30').toISOString() } })
    const dropped = collectAnswer(fields, { ...values, age: '', platforms: [], when: '' })
    expect(dropped.ok && dropped.content).toEqual({ name: 'Ada', email: 'ada@example.com', newsletter: true, channel: 'beta' })
  })

  it('gives messages for unreadable and invalid inputs', () => {
    expect(collectAnswer(fields, { ...initialValues(fields), age: '1e', when: 'soon' })).toEqual({
      ok: false,
      errors: { name: 'This field is required.', email: 'This field is required.', age: 'Enter a number.', when: 'Enter a valid date and time.' },
    })
  })

  it('round-trips a date-time default through the datetime-local input', () => {
    const local = toLocalDateTime('2026-03-01T09:30:00Z')
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/)
    expect(fromLocalDateTime(local)).toBe('2026-03-01T09:30:00.000Z')
    expect(toLocalDateTime('nope')).toBe('')
  })

  it('reads and writes a date-time in UTC when asked (the server-rendered question page has no script to learn the zone)', () => {
    expect(toLocalDateTime('2026-03-01T09:30:00+02:00', { timeZone: 'utc' })).toBe('2026-03-01T07:30')
    expect(fromLocalDateTime('2026-03-01T07:30', { timeZone: 'utc' })).toBe('2026-03-01T07:30:00.000Z')
    expect(initialValues(fieldsOf({ at: { type: 'string', format: 'date-time', default: '2026-03-01T09:30:00Z' } }), { timeZone: 'utc' })).toEqual({ at: '2026-03-01T09:30' })
    expect(collectAnswer(fields, { ...initialValues(fields), name: 'Ada', email: 'ada@example.com', when: '2026-03-01T09:30' }, { timeZone: 'utc' }))
      .toMatchObject({ ok: true, content: { when: '2026-03-01T09:30:00.000Z' } })
  })

  it('keeps a field named __proto__ as a field, in values, content and messages', () => {
    const odd = fieldsOf(JSON.parse('{ "__proto__": { "type": "string", "minLength": 3 } }'), ['__proto__'])
    expect(Object.keys(initialValues(odd))).toEqual(['__proto__'])
    const refused = collectAnswer(odd, JSON.parse('{ "__proto__": "ab" }'))
    expect(!refused.ok && Object.keys(refused.errors)).toEqual(['__proto__'])
    const accepted = collectAnswer(odd, JSON.parse('{ "__proto__": "abc" }'))
    expect(accepted.ok && JSON.stringify(accepted.content)).toBe('{"__proto__":"abc"}')
  })
})

describe('URL mode and request normalisation', () => {
  it('shows the host, flags http, refuses dangerous links', () => {
    expect(describeUrlTarget('https://auth.example.com/connect?x=1')).toEqual({ ok: true, href: 'https://auth.example.com/connect?x=1', host: 'auth.example.com', secure: true })
    expect(describeUrlTarget('http://example.com/')).toMatchObject({ ok: true, secure: false })
    expect(describeUrlTarget('http://127.0.0.1:3000/connect')).toMatchObject({ ok: true, host: '127.0.0.1:3000', secure: true })
    expect(describeUrlTarget('javascript:alert(1)')).toMatchObject({ ok: false })
    expect(describeUrlTarget('https://user:pw@example.com/')).toMatchObject({ ok: false })
    expect(describeUrlTarget('not a url')).toMatchObject({ ok: false })
  })

  it('normalises form and URL requests', () => {
    expect(toElicitationRequest({ message: 'Hi', requestedSchema: { type: 'object', properties: {} } })).toEqual({ mode: 'form', message: 'Hi', requestedSchema: { type: 'object', properties: {} } })
    expect(toElicitationRequest({ mode: 'url', message: 'Go', url: 'https://x.test', elicitationId: 'e1' })).toEqual({ mode: 'url', message: 'Go', url: 'https://x.test', elicitationId: 'e1' })
    expect(toElicitationRequest({ mode: 'url', message: 'Go' })).toBeTypeOf('string')
    expect(toElicitationRequest({ mode: 'telepathy', message: 'Go' })).toBeTypeOf('string')
  })
})

describe('what the form says besides its fields', () => {
  it('labels a property with no title by its key as words', () => {
    expect(['plan_tier', 'planTier', 'plan-tier', 'email', 'maxRetries2', 'URL'].map(readableLabel)).toEqual(['Plan tier', 'Plan tier', 'Plan tier', 'Email', 'Max retries2', 'URL'])
    const read = readRequestedSchema({ type: 'object', properties: { plan_tier: { type: 'string', enum: ['free', 'pro'] }, named: { type: 'string', title: 'Kept as written' } } })
    expect(read.ok && read.fields.map(field => field.label)).toEqual(['Plan tier', 'Kept as written'])
  })

  it('shows the time left, and in the last minute that what was typed is lost', () => {
    const now = 1_000_000
    expect(describeDeadline(undefined, now)).toBeUndefined()
    expect(describeDeadline(now + 272_000, now)).toEqual({ text: 'Time left to answer: 4:32.', urgent: false })
    expect(describeDeadline(now + 45_500, now)).toEqual({ text: 'Time left to answer: 0:46. What you typed is lost when it runs out.', urgent: true })
    expect(formatTimeLeft(-5_000)).toBe('0:00')
  })
})

describe('URLs from chat message data', () => {
  const config = { appsSandboxOrigin: 'localhost', respondRoute: '/base/api/_mcp/elicitations', appsRoute: '/base/api/_mcp/apps' }
  const context: McpHostUrlContext = { page: new URL('http://127.0.0.1:3000/base/chat'), config, dev: false }
  const sandbox = 'http://localhost:3000/_mcp/apps/sandbox?host=http%3A%2F%2F127.0.0.1%3A3000'

  it('takes the URLs the host writes for this page', () => {
    expect(checkHostUrl('sandboxUrl', sandbox, context)).toBeUndefined()
    expect(checkHostUrl('callUrl', '/base/api/_mcp/apps/6f1c0b9e-1d2a-4c3b-9a8e-0f1e2d3c4b5a/call', context)).toBeUndefined()
    expect(checkHostUrl('respondUrl', '/base/api/_mcp/elicitations/6f1c0b9e-1d2a-4c3b-9a8e-0f1e2d3c4b5a', context)).toBeUndefined()
    // An id of the app's own generateId, as encodeURIComponent writes it.
    expect(checkHostUrl('respondUrl', `/base/api/_mcp/elicitations/${encodeURIComponent('order 7 (draft)')}`, context)).toBeUndefined()
    // In nuxi dev without a sandbox origin: the other loopback name.
    expect(checkHostUrl('sandboxUrl', sandbox, { ...context, config: { ...config, appsSandboxOrigin: '' }, dev: true })).toBeUndefined()
  })

  it('refuses a sandbox page on any other origin, or for another page, naming the field, the value and the host\'s', () => {
    const foreign = 'https://evil.example/_mcp/apps/sandbox?host=http%3A%2F%2F127.0.0.1%3A3000'
    expect(checkHostUrl('sandboxUrl', foreign, context)).toBe(`Refused sandboxUrl "${foreign}" from the chat's message data: this host's sandbox page for this page is "${sandbox}". Message data is not the host's word (a stored or shared conversation carries what anyone wrote); only a part this host wrote for this page is shown.`)
    expect(checkHostUrl('sandboxUrl', sandbox.replace('127.0.0.1', 'evil.example'), context)).toContain('this host\'s sandbox page for this page is')
    expect(checkHostUrl('sandboxUrl', 'http://127.0.0.1:3000/_mcp/apps/sandbox?host=http%3A%2F%2F127.0.0.1%3A3000', context)).toContain('Refused sandboxUrl')
    expect(checkHostUrl('sandboxUrl', sandbox, { ...context, config: { ...config, appsSandboxOrigin: '' } })).toContain('this host has no sandbox origin for views (set mcp.host.apps.sandboxOrigin)')
    // A sandbox origin that is no origin is named, with what the option takes, on the page and at the route.
    for (const option of ['sandbox example.com', 'ftp://sandbox.example.com', 'https://sandbox.example.com/views']) {
      expect(checkHostUrl('sandboxUrl', sandbox, { ...context, config: { ...config, appsSandboxOrigin: option } })).toContain(`mcp.host.apps.sandboxOrigin (NUXT_MCP_HOST_APPS_SANDBOX_ORIGIN) is "${option}": give a full origin`)
    }
  })

  it('refuses a call or respond URL that is another path, another origin, or resolves elsewhere', () => {
    const refused = (field: 'callUrl' | 'respondUrl', value: unknown) => checkHostUrl(field, value, context)
    expect(refused('callUrl', '/base/api/_mcp/elicitations/abc')).toContain('Refused callUrl "/base/api/_mcp/elicitations/abc" from the chat\'s message data: this host\'s is a path "/base/api/_mcp/apps/<id>/call" of the page\'s own origin')
    expect(refused('respondUrl', '/base/api/_mcp/apps/abc/call')).toContain('this host\'s is a path "/base/api/_mcp/elicitations/<id>"')
    for (const value of [
      'http://127.0.0.1:3000/base/api/_mcp/elicitations/abc', // absolute, even on the page's origin: the host writes a path
      'https://evil.example/base/api/_mcp/elicitations/abc',
      '//evil.example/base/api/_mcp/elicitations/abc',
      '/base/api/_mcp/elicitations/abc?x=1',
      '/base/api/_mcp/elicitations/abc#x',
      '/base/api/_mcp/elicitations/a/b',
      '/base/api/_mcp/elicitations/..',
      '/base/api/_mcp/elicitations/%2e%2e',
      '/base/api/_mcp/elicitations/%2E.',
      '/base/api/_mcp/elicitations/abc\\..\\..\\x',
      '/api/_mcp/elicitations/abc', // without the app's baseURL
      '',
    ]) expect(refused('respondUrl', value), value).toMatch(/^Refused respondUrl /)
    expect(refused('respondUrl', 42)).toContain('Refused respondUrl 42 from the chat\'s message data: it is not a string')
  })

  it('refuses everything on a page without its host config, saying what is missing', () => {
    expect(checkHostUrl('respondUrl', '/base/api/_mcp/elicitations/abc', { ...context, config: undefined })).toContain('this page has no host config (runtimeConfig.public.mcpHost')
    expect(readHostPageConfig(undefined)).toBeUndefined()
    expect(readHostPageConfig({ appsSandboxOrigin: '', respondRoute: '/x' })).toBeUndefined()
    expect(readHostPageConfig({ ...config, extra: 1 })).toEqual(config)
  })
})
