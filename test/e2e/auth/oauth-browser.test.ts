import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport, UnauthorizedError } from '@modelcontextprotocol/client'
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { UnauthorizedError as LegacyUnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RuntimeApp } from '../../utils/fixture'
import { launchBrowser } from '../../utils/browser'
import type { LaunchedBrowser } from '../../utils/browser'
import { textOf } from '../../utils/clients'
import { buildFixture, startFixtureOn } from '../../utils/fixture'
import { startWithAuthorizationServers, TEST_CLIENTS } from '../../utils/oidc'
import type { AuthorizationServer } from '../../utils/oidc'
import { BrowserOAuthProvider, startCallbackServer } from '../../utils/oauth-sign-in'
import type { CallbackServer } from '../../utils/oauth-sign-in'
import { postModern } from '../../utils/raw'

// A person signs in: the authorization code flow with PKCE and dynamic client registration, as
// Claude Desktop, Cursor or VS Code run it. The real SDK clients discover the authorization
// server through the endpoint's 401 and its Protected Resource Metadata, register, send the
// person to oidc-provider's pages in Chromium, and exchange the code at the callback. Then the
// tool calls, an elicitation among them, run as that person in both eras.
let as: AuthorizationServer
let app: RuntimeApp
let browser: LaunchedBrowser
let callback: CallbackServer

beforeAll(async () => {
  await buildFixture('oauth', { reuse: true })
  const started = await startWithAuthorizationServers([{}], (port, servers) => startFixtureOn('node', 'oauth', {
    port,
    env: {
      NUXT_MCP_STATE_SECRET: 'oauth-browser-state-secret-0123456789abcdef',
      NUXT_MCP_PUBLIC_URL: `http://127.0.0.1:${port}`,
      NUXT_MCP_AUTH_ISSUERS: servers[0]!.issuer,
      NUXT_MCP_AUTH_SCOPES: 'mcp:tools',
      NUXT_MCP_AUTH_INTROSPECTION_CLIENT_ID: 'mcp-server',
      NUXT_MCP_AUTH_INTROSPECTION_CLIENT_SECRET: TEST_CLIENTS['mcp-server'],
    },
  }))
  app = started.app
  as = started.servers[0]!
  ;[browser, callback] = await Promise.all([launchBrowser(), startCallbackServer()])
}, 240_000)

afterAll(async () => {
  await Promise.all([browser?.close(), callback?.close(), app?.stop()])
  await as?.stop()
})

const FORM_ANSWER = { action: 'accept' as const, content: { name: 'Ada', plan: 'pro' } }

/** A v2 `Client` that answers forms, in the given era. */
function modernClient(era: '2026-07-28' | 'legacy'): ModernClient {
  const client = new ModernClient({ name: 'oauth-browser-host', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: era === 'legacy' ? 'legacy' : { pin: era } } })
  client.setRequestHandler('elicitation/create', () => FORM_ANSWER)
  return client
}

describe('a person signs in (authorization code + PKCE, dynamic registration) with the real SDK clients', () => {
  for (const era of ['2026-07-28', 'legacy'] as const) {
    it(`v2 Client, ${era}: discovers, registers, signs in through Chromium, then calls tools and answers an elicitation as that person`, async () => {
      const login = `ada-${era === 'legacy' ? 'legacy' : 'modern'}`
      const provider = new BrowserOAuthProvider(callback, browser.page, login)
      const first = new ModernTransport(app.url, { authProvider: provider })
      // Without a token the endpoint answers 401; the SDK follows it to the PRM document and the
      // authorization server, registers, and sends the person to sign in.
      const refused = await modernClient(era).connect(first).then(() => undefined, (error: unknown) => error)
      expect(refused).toBeInstanceOf(UnauthorizedError)
      expect(provider.redirects).toBe(1)
      expect(provider.registered?.client_id).toBeTruthy()
      await first.finishAuth(await callback.next())
      expect(provider.saved?.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)

      const client = modernClient(era)
      await client.connect(new ModernTransport(app.url, { authProvider: provider }))
      const whoami = JSON.parse(textOf(await client.callTool({ name: 'whoami', arguments: {} })))
      expect(whoami).toEqual({ principal: login, clientId: provider.registered?.client_id, scopes: ['mcp:tools'] })
      expect(JSON.parse(textOf(await client.callTool({ name: 'ask_form', arguments: {} })))).toEqual({ action: 'accept', content: { ...FORM_ANSWER.content, subscribe: true } })
      await client.close()
      expect(provider.redirects).toBe(1)
    }, 90_000)
  }

  it('v1 Client on a legacy session: the same sign-in, then the session belongs to that person', async () => {
    const provider = new BrowserOAuthProvider(callback, browser.page, 'grace')
    const first = new LegacyTransport(app.url, { authProvider: provider })
    const legacyClient = () => {
      const client = new LegacyClient({ name: 'oauth-browser-v1', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } })
      client.setRequestHandler(ElicitRequestSchema, () => FORM_ANSWER)
      return client
    }
    const refused = await legacyClient().connect(first).then(() => undefined, (error: unknown) => error)
    expect(refused).toBeInstanceOf(LegacyUnauthorizedError)
    const { code } = Object.fromEntries(await callback.next())
    await first.finishAuth(code!)

    const transport = new LegacyTransport(app.url, { authProvider: provider })
    const client = legacyClient()
    await client.connect(transport)
    expect(transport.sessionId).toBeTruthy()
    expect(JSON.parse(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).principal).toBe('grace')
    expect(JSON.parse(textOf(await client.callTool({ name: 'ask_form', arguments: {} }))).content.name).toBe('Ada')
    // Another person's valid token does not open grace's session.
    const intruder = await fetch(app.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': transport.sessionId!, 'authorization': `Bearer ${await as.clientToken()}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    })
    expect(intruder.status).toBe(403)
    await client.close()
  }, 90_000)

  it('the same sign-in with an opaque access token, checked by introspection, in both eras', async () => {
    const provider = new BrowserOAuthProvider(callback, browser.page, 'opal', 'opaque-token host')
    const first = new ModernTransport(app.url, { authProvider: provider })
    await expect(modernClient('2026-07-28').connect(first)).rejects.toBeInstanceOf(UnauthorizedError)
    await first.finishAuth(await callback.next())
    expect(provider.saved?.access_token).not.toMatch(/\./)
    for (const era of ['2026-07-28', 'legacy'] as const) {
      const client = modernClient(era)
      await client.connect(new ModernTransport(app.url, { authProvider: provider }))
      expect(JSON.parse(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).principal).toBe('opal')
      expect(JSON.parse(textOf(await client.callTool({ name: 'ask_form', arguments: {} }))).content.name).toBe('Ada')
      await client.close()
    }
  }, 90_000)

  it('binds a 2026-07-28 requestState to the person: another caller\'s token cannot answer it', async () => {
    const provider = new BrowserOAuthProvider(callback, browser.page, 'ada-modern')
    const transport = new ModernTransport(app.url, { authProvider: provider })
    await modernClient('2026-07-28').connect(transport).catch(() => undefined)
    await transport.finishAuth(await callback.next())
    const token = provider.saved!.access_token
    const asked = await postModern(app.url, 'tools/call', { name: 'ask_form', arguments: {} }, { headers: { authorization: `Bearer ${token}` } })
    const result = asked.message.result as { resultType?: string, requestState?: string, inputRequests?: Record<string, unknown> }
    expect(result.resultType).toBe('input_required')
    const key = Object.keys(result.inputRequests ?? {})[0]!
    const answer = { name: 'ask_form', arguments: {}, requestState: result.requestState, inputResponses: { [key]: FORM_ANSWER } }
    const stolen = await postModern(app.url, 'tools/call', answer, { headers: { authorization: `Bearer ${await as.clientToken()}` } })
    // The wire answer does not say why (the SDK keeps the reason to the server's log).
    expect(stolen.message.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' })
    const own = await postModern(app.url, 'tools/call', answer, { headers: { authorization: `Bearer ${token}` } })
    expect(JSON.parse(textOf(own.message.result)).content.name).toBe('Ada')
  }, 90_000)
})
