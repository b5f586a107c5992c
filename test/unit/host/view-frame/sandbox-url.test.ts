import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import { createEvent } from 'h3'
import { describe, expect, it } from 'vitest'
import { refuseSandboxRequest, sandboxUrlOf } from '../../../../src/runtime/host/apps/sandbox-url'

describe('where an MCP App view runs', () => {
  /** A real h3 event of a request to `url` (its Host header and path). */
  function event(url: string) {
    const req = new IncomingMessage(new Socket())
    req.url = new URL(url).pathname
    req.headers.host = new URL(url).host
    return createEvent(req, new ServerResponse(req))
  }
  it('is named by sandboxOrigin, or the other loopback name in nuxi dev, and never the page\'s own origin', () => {
    const at = (url: string, option: string, dev: boolean) => sandboxUrlOf(event(url), option, dev)
    expect(at('http://127.0.0.1:3000/api/chat', 'localhost', false)).toBe('http://localhost:3000/_mcp/apps/sandbox?host=http%3A%2F%2F127.0.0.1%3A3000')
    expect(at('http://127.0.0.1:3000/api/chat', 'https://sandbox.example.com', false)).toBe('https://sandbox.example.com/_mcp/apps/sandbox?host=http%3A%2F%2F127.0.0.1%3A3000')
    expect(at('http://localhost:3000/api/chat', '', true)).toBe('http://127.0.0.1:3000/_mcp/apps/sandbox?host=http%3A%2F%2Flocalhost%3A3000')
    expect(at('http://localhost:3000/api/chat', '', false)).toBeUndefined()
    expect(at('http://localhost:3000/api/chat', 'localhost', false)).toBeUndefined()
    // An option that names no origin stops the chat with what it takes, not with a sandbox URL that cannot load.
    expect(() => at('http://127.0.0.1:3000/api/chat', 'sandbox example.com', false)).toThrow('mcp.host.apps.sandboxOrigin (NUXT_MCP_HOST_APPS_SANDBOX_ORIGIN) is "sandbox example.com": give a full origin')
  })
})

describe('the sandbox page answers only on the sandbox\'s host', () => {
  /** A real h3 event of a GET of `url` (its Host header, path and query). */
  function event(url: string) {
    const req = new IncomingMessage(new Socket())
    const parsed = new URL(url)
    req.url = `${parsed.pathname}${parsed.search}`
    req.headers.host = parsed.host
    return createEvent(req, new ServerResponse(req))
  }
  const page = encodeURIComponent('http://127.0.0.1:3000')
  it('serves on the host sandboxOrigin names (a host name on the page\'s port, or a full origin)', () => {
    expect(refuseSandboxRequest(event(`http://localhost:3000/_mcp/apps/sandbox?host=${page}`), 'localhost', false)).toBeUndefined()
    expect(refuseSandboxRequest(event(`http://sandbox.example.com/_mcp/apps/sandbox?host=${page}`), 'https://sandbox.example.com', false)).toBeUndefined()
    expect(refuseSandboxRequest(event(`http://localhost:3000/_mcp/apps/sandbox?host=${page}`), '', true)).toBeUndefined()
  })
  it('refuses on the app\'s own host, without a sandbox origin, and without ?host=, saying where it is served', () => {
    expect(refuseSandboxRequest(event(`http://127.0.0.1:3000/_mcp/apps/sandbox?host=${page}`), 'localhost', false)).toBe('The MCP App sandbox page is served only on the sandbox\'s host, localhost:3000 (mcp.host.apps.sandboxOrigin), not on 127.0.0.1:3000.')
    expect(refuseSandboxRequest(event(`http://127.0.0.1:3000/_mcp/apps/sandbox?host=${page}`), 'https://sandbox.example.com', false)).toContain('only on the sandbox\'s host, sandbox.example.com')
    expect(refuseSandboxRequest(event(`http://localhost:3000/_mcp/apps/sandbox?host=${page}`), '', false)).toContain('This host has no sandbox origin for views of http://127.0.0.1:3000: set mcp.host.apps.sandboxOrigin')
    expect(refuseSandboxRequest(event(`http://127.0.0.1:3000/_mcp/apps/sandbox?host=${page}`), '', true)).toContain('not on 127.0.0.1:3000')
    expect(refuseSandboxRequest(event('http://localhost:3000/_mcp/apps/sandbox'), 'localhost', false)).toContain('names in ?host=; got none')
    expect(refuseSandboxRequest(event('http://localhost:3000/_mcp/apps/sandbox?host=nope'), 'localhost', false)).toContain('got "nope"')
    expect(refuseSandboxRequest(event(`http://localhost:3000/_mcp/apps/sandbox?host=${page}`), 'https://sandbox.example.com/views', false)).toContain('mcp.host.apps.sandboxOrigin (NUXT_MCP_HOST_APPS_SANDBOX_ORIGIN) is "https://sandbox.example.com/views"')
  })
})
