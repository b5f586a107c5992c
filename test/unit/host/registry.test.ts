import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMemoryElicitationRegistry } from '../../../src/runtime/host/registry'
import type { McpPendingElicitation } from '../../../src/runtime/host/registry'
import { respondToElicitation } from '../../../src/runtime/host/respond'
import { createHostElicitor } from '../../../src/runtime/host/elicitor'
import type { McpElicitationDataChunk } from '../../../src/runtime/host/elicitor'
import { checkCsrf } from '../../../src/runtime/host/csrf'

// The host's pending registry, its respond logic (what POST /api/_mcp/elicitations/:id does), the
// elicitor that turns a server request into a data part and waits, and the CSRF check.

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Full name', minLength: 1 },
    email: { type: 'string', format: 'email' },
    age: { type: 'integer', minimum: 13, maximum: 130 },
    newsletter: { type: 'boolean', default: false },
  },
  required: ['name', 'email'],
}

function entry(overrides: Partial<McpPendingElicitation> = {}): McpPendingElicitation {
  return { id: 'e1', owner: 'browser:alice', request: { mode: 'form', message: 'Register', requestedSchema: SCHEMA }, createdAt: 0, expiresAt: Date.now() + 60_000, ...overrides }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('memory registry', () => {
  it('settles once: the first answer wins, a second is refused', async () => {
    const registry = createMemoryElicitationRegistry()
    await registry.add(entry())
    const waiting = registry.wait('e1')
    expect(await registry.settle('e1', { action: 'decline' })).toBe(true)
    expect(await registry.settle('e1', { action: 'accept', content: {} })).toBe(false)
    expect(await waiting).toEqual({ action: 'decline' })
    expect(await registry.get('e1')).toBeUndefined()
  })

  it('expires entries: pruned on access, their waiter gets cancel', async () => {
    let now = 1000
    const registry = createMemoryElicitationRegistry({ now: () => now })
    await registry.add(entry({ expiresAt: 2000 }))
    const waiting = registry.wait('e1')
    now = 2000
    expect(await registry.get('e1')).toBeUndefined()
    expect(await waiting).toEqual({ action: 'cancel' })
    // A late answer is refused.
    expect(await registry.settle('e1', { action: 'accept' })).toBe(false)
  })

  it('prunes in bulk, refuses duplicates and a full store, and answers cancel for unknown waits', async () => {
    let now = 0
    const registry = createMemoryElicitationRegistry({ now: () => now, maxEntries: 2 })
    await registry.add(entry({ id: 'a', expiresAt: 10 }))
    await expect(registry.add(entry({ id: 'a', expiresAt: 10 }))).rejects.toThrow(/already pending/)
    await registry.add(entry({ id: 'b', expiresAt: 20 }))
    await expect(registry.add(entry({ id: 'c', expiresAt: 30 }))).rejects.toThrow(/Too many/)
    now = 15
    expect(await registry.prune()).toBe(1)
    expect(await registry.wait('nope')).toEqual({ action: 'cancel' })
  })
})

describe('respondToElicitation', () => {
  async function pending() {
    const registry = createMemoryElicitationRegistry()
    await registry.add(entry())
    return { registry, answer: registry.wait('e1') }
  }

  it('accepts a matching answer for the owner and resolves the waiter with typed content', async () => {
    const { registry, answer } = await pending()
    const outcome = await respondToElicitation(registry, { id: 'e1', owner: 'browser:alice', body: { action: 'accept', content: { name: 'Ada', email: 'ada@example.com', age: 36 } } })
    expect(outcome).toEqual({ status: 200, body: { ok: true, action: 'accept' } })
    expect(await answer).toEqual({ action: 'accept', content: { name: 'Ada', email: 'ada@example.com', age: 36 } })
  })

  it('400 with the fields for an answer that does not match the schema; the entry stays pending', async () => {
    const { registry } = await pending()
    const outcome = await respondToElicitation(registry, { id: 'e1', owner: 'browser:alice', body: { action: 'accept', content: { email: 'nope', age: 7, admin: true } } })
    expect(outcome).toEqual({
      status: 400,
      body: {
        error: 'The answer does not match the requested schema.',
        fields: { name: 'This field is required.', email: 'Enter a valid email address, like name@example.com.', age: 'Enter a number of at least 13.', admin: 'This field is not part of the form.' },
      },
    })
    expect(await registry.get('e1')).toBeDefined()
  })

  it('400 for a malformed body', async () => {
    const { registry } = await pending()
    expect(await respondToElicitation(registry, { id: 'e1', owner: 'browser:alice', body: { action: 'maybe' } })).toMatchObject({ status: 400 })
    expect(await respondToElicitation(registry, { id: 'e1', owner: 'browser:alice', body: 'accept' })).toMatchObject({ status: 400 })
  })

  it('404 for an unknown id, a double answer, and another owner (same message for all)', async () => {
    const { registry } = await pending()
    const unknown = await respondToElicitation(registry, { id: 'e2', owner: 'browser:alice', body: { action: 'decline' } })
    expect(unknown).toEqual({ status: 404, body: { error: expect.stringContaining('unknown, expired or already answered') } })
    expect(await respondToElicitation(registry, { id: 'e1', owner: 'browser:mallory', body: { action: 'decline' } })).toEqual(unknown)
    expect(await respondToElicitation(registry, { id: 'e1', owner: undefined, body: { action: 'decline' } })).toEqual(unknown)
    expect(await respondToElicitation(registry, { id: 'e1', owner: 'browser:alice', body: { action: 'cancel', content: { ignored: 1 } } })).toEqual({ status: 200, body: { ok: true, action: 'cancel' } })
    expect(await respondToElicitation(registry, { id: 'e1', owner: 'browser:alice', body: { action: 'decline' } })).toEqual(unknown)
  })

  it('URL mode is accepted without content', async () => {
    const registry = createMemoryElicitationRegistry()
    await registry.add(entry({ request: { mode: 'url', message: 'Connect', url: 'https://auth.example.com/' } }))
    expect(await respondToElicitation(registry, { id: 'e1', owner: 'browser:alice', body: { action: 'accept', content: { a: 1 } } })).toMatchObject({ status: 400 })
    expect(await respondToElicitation(registry, { id: 'e1', owner: 'browser:alice', body: { action: 'accept' } })).toMatchObject({ status: 200 })
  })
})

describe('createHostElicitor', () => {
  function setUp(timeoutMs = 60_000, owner: Promise<string | undefined> | string = 'browser:alice') {
    const registry = createMemoryElicitationRegistry()
    const chunks: McpElicitationDataChunk[] = []
    const controller = new AbortController()
    let n = 0
    const handler = createHostElicitor({ registry, owner, write: chunk => chunks.push(chunk), timeoutMs, route: '/api/_mcp/elicitations', signal: controller.signal, server: 'playground', generateId: () => `id-${++n}` })
    return { registry, chunks, controller, handler }
  }
  const request = { params: { message: 'Register', requestedSchema: SCHEMA } }

  it('writes a pending part, returns the person\'s answer, rewrites the part as answered', async () => {
    const { registry, chunks, handler } = setUp()
    const result = handler(request)
    await vi.waitFor(() => expect(chunks).toHaveLength(1))
    expect(chunks[0]).toMatchObject({ type: 'data-mcp-elicitation', id: 'id-1', data: { id: 'id-1', status: 'pending', mode: 'form', message: 'Register', respondUrl: '/api/_mcp/elicitations/id-1', server: 'playground', requestedSchema: SCHEMA } })
    await respondToElicitation(registry, { id: 'id-1', owner: 'browser:alice', body: { action: 'accept', content: { name: 'Ada', email: 'ada@example.com' } } })
    expect(await result).toEqual({ action: 'accept', content: { name: 'Ada', email: 'ada@example.com' } })
    expect(chunks[1]).toMatchObject({ id: 'id-1', data: { status: 'answered', action: 'accept' } })
  })

  it('answers cancel at the timeout (never a hang) and marks the part expired; a late answer gets 404', async () => {
    vi.useFakeTimers()
    const { registry, chunks, handler } = setUp(5000)
    const result = handler(request)
    await vi.waitFor(() => expect(chunks).toHaveLength(1))
    await vi.advanceTimersByTimeAsync(5000)
    expect(await result).toEqual({ action: 'cancel' })
    expect(chunks[1]).toMatchObject({ data: { status: 'expired', action: 'cancel' } })
    expect(await respondToElicitation(registry, { id: 'id-1', owner: 'browser:alice', body: { action: 'decline' } })).toMatchObject({ status: 404 })
  })

  it('answers cancel when the browser goes away, without an owner, or for an unsupported request', async () => {
    const { chunks, controller, handler } = setUp()
    const result = handler(request)
    await vi.waitFor(() => expect(chunks).toHaveLength(1))
    controller.abort()
    expect(await result).toEqual({ action: 'cancel' })
    expect(await handler(request)).toEqual({ action: 'cancel' }) // already aborted
    expect(await setUp(60_000, Promise.resolve(undefined)).handler(request)).toEqual({ action: 'cancel' })
    expect(await setUp().handler({ params: { message: 'x', mode: 'telepathy' } })).toEqual({ action: 'cancel' })
  })
})

describe('checkCsrf', () => {
  const ok = { host: 'app.test', origin: 'https://app.test', secFetchSite: 'same-origin', marker: '1', contentType: 'application/json' }

  it('accepts a same-origin JSON request with the marker header, and a non-browser one', () => {
    expect(checkCsrf(ok)).toBeUndefined()
    expect(checkCsrf({ ...ok, origin: undefined, secFetchSite: undefined, contentType: 'application/json; charset=utf-8' })).toBeUndefined()
    expect(checkCsrf({ ...ok, origin: 'https://admin.test', allowedOrigins: ['https://admin.test'] })).toBeUndefined()
  })

  it('refuses a missing marker, a cross-site or foreign-origin request, and non-JSON bodies', () => {
    expect(checkCsrf({ ...ok, marker: undefined })).toMatchObject({ status: 403 })
    expect(checkCsrf({ ...ok, secFetchSite: 'cross-site' })).toMatchObject({ status: 403 })
    expect(checkCsrf({ ...ok, secFetchSite: 'same-site' })).toMatchObject({ status: 403 })
    expect(checkCsrf({ ...ok, origin: 'https://evil.test' })).toMatchObject({ status: 403 })
    expect(checkCsrf({ ...ok, contentType: 'text/plain' })).toMatchObject({ status: 415 })
  })
})
