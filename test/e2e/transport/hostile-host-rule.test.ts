import type { ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy } from '../../utils/clients'
import { startDevApp } from '../../utils/dev-server'
import type { DevApp } from '../../utils/dev-server'
import { createPrivateHost } from '../../utils/netns'
import type { PrivateHost } from '../../utils/netns'
import { JSON_HEADERS, postRaw } from '../../utils/raw'

// DNS rebinding: a page on evil.example whose name the attacker re-points at the server's address
// reaches it with `Host: evil.example` and `Origin: http://evil.example`. Whatever the listening
// address (loopback, a LAN or container address, nuxi dev's socket), a DNS name that is not
// this server's must be refused; loopback names and IP literals (which cannot be rebound) pass.

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })

function asRebound(host: string): Record<string, string> {
  return { ...JSON_HEADERS, host, origin: `http://${host}` }
}

describe('a built server on a private address (a network namespace, as a container or LAN host)', () => {
  let lan: PrivateHost
  let server: ChildProcess
  let port: number
  let url: string

  beforeAll(async () => {
    lan = createPrivateHost()
    // The namespace has a network stack of its own, and nothing else listens in it: any port is free.
    port = 3000
    server = await lan.startFixture('basic', port, { NUXT_MCP_PUBLIC_URL: 'https://mcp.example.com' })
    url = `http://${lan.address}:${port}/mcp`
  }, 60_000)

  afterAll(() => {
    server?.kill()
    lan?.remove()
  })

  it('refuses a rebound DNS name with 403 naming NUXT_MCP_PUBLIC_URL and the opt-out', async () => {
    const { status, body } = await postRaw(url, asRebound(`evil.example:${port}`), initialize)
    expect(status).toBe(403)
    expect(body).toContain('evil.example')
    expect(body).toContain('NUXT_MCP_PUBLIC_URL')
    expect(body).toContain('allowedHosts')
  })

  it('serves the public URL\'s host', async () => {
    const { status } = await postRaw(url, { ...JSON_HEADERS, host: 'mcp.example.com' }, initialize)
    expect(status).toBe(200)
  })

  it('serves an IP literal (what a LAN client types; it cannot be rebound)', async () => {
    const { status } = await postRaw(url, { ...JSON_HEADERS, host: `${lan.address}:${port}` }, initialize)
    expect(status).toBe(200)
  })
})

describe('nuxi dev --host 0.0.0.0', () => {
  let app: DevApp

  beforeAll(async () => {
    app = await startDevApp({}, { host: '0.0.0.0' })
    const deadline = Date.now() + 150_000
    for (;;) {
      try {
        await (await connectLegacy(app.url, { connectTimeoutMs: 8000 })).close()
        break
      }
      catch (error) {
        if (!app.alive() || Date.now() > deadline) throw new Error(`nuxi dev did not serve MCP: ${String(error)}\n${app.log()}`)
        await new Promise(r => setTimeout(r, 500))
      }
    }
  }, 180_000)

  afterAll(() => app?.stop(), 30_000)

  it('refuses a rebound DNS name with 403', async () => {
    const { status, body } = await postRaw(app.url, asRebound(`evil.example:${app.url.port}`), initialize)
    expect(status).toBe(403)
    expect(body).toContain('NUXT_MCP_PUBLIC_URL')
  })

  it('serves a loopback Host', async () => {
    const { status } = await postRaw(app.url, { ...JSON_HEADERS, host: `localhost:${app.url.port}` }, initialize)
    expect(status).toBe(200)
  })
})
