import { ClientCredentialsProvider, Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RuntimeApp } from '../../utils/fixture'
import { connectLegacy, textOf } from '../../utils/clients'
import { buildFixture, startFixtureOn } from '../../utils/fixture'
import { onFreePort } from '../../../scripts/ports.mjs'
import { startWithAuthorizationServers, TEST_CLIENTS } from '../../utils/oidc'
import type { AuthorizationServer } from '../../utils/oidc'
import { postModern } from '../../utils/raw'

// The endpoint as an OAuth resource server (MCP authorization), against a real authorization
// server: oidc-provider on loopback issuing JWT access tokens for the endpoint's resource.
const SECRET = 'oauth-test-state-secret-0123456789abcdefghij'
let as: AuthorizationServer
let shortLived: AuthorizationServer
let app: RuntimeApp
let resource: string

function env(origin: string): Record<string, string> {
  return {
    NUXT_MCP_STATE_SECRET: SECRET,
    NUXT_MCP_PUBLIC_URL: origin,
    NUXT_MCP_AUTH_ISSUERS: `${as.issuer},${shortLived.issuer}`,
    NUXT_MCP_AUTH_SCOPES: 'mcp:tools',
    NUXT_MCP_AUTH_CLOCK_TOLERANCE_SECONDS: '1',
    NUXT_MCP_AUTH_INTROSPECTION_CLIENT_ID: 'mcp-server',
    NUXT_MCP_AUTH_INTROSPECTION_CLIENT_SECRET: TEST_CLIENTS['mcp-server'],
    // So a test can be a caller of its own (X-Forwarded-For): callers are counted apart.
    NUXT_MCP_TRUSTED_PROXIES: '127.0.0.1',
  }
}

async function startApp(): Promise<RuntimeApp> {
  return onFreePort(port => startFixtureOn('node', 'oauth', { port, env: env(`http://127.0.0.1:${port}`) }))
}

beforeAll(async () => {
  await buildFixture('oauth', { reuse: true })
  // The issuers' URLs go into the app's env (env() reads `as` and `shortLived`): set before it starts.
  const started = await startWithAuthorizationServers([{}, { tokenTtlSeconds: 1 }], (port, servers) => {
    as = servers[0]!
    shortLived = servers[1]!
    return startFixtureOn('node', 'oauth', { port, env: env(`http://127.0.0.1:${port}`) })
  })
  app = started.app
  resource = started.resource
}, 240_000)

afterAll(async () => {
  await app?.stop()
  await Promise.all([as?.stop(), shortLived?.stop()])
})

function call(token: string | undefined, name = 'whoami') {
  return postModern(app.url, 'tools/call', { name, arguments: name === 'echo' ? { text: 'hi' } : {} }, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } })
}

describe('a second endpoint with its own OAuth settings (/mcp/admin: scope mcp:admin, its own resource)', () => {
  const admin = () => new URL('/mcp/admin', app.origin)
  const callAdmin = (token: string) => postModern(admin(), 'tools/call', { name: 'admin_whoami', arguments: {} }, { headers: { authorization: `Bearer ${token}` } })

  it('publishes its own Protected Resource Metadata', async () => {
    const response = await fetch(new URL('/.well-known/oauth-protected-resource/mcp/admin', app.origin))
    expect(await response.json()).toEqual({ resource: `${app.origin}/mcp/admin`, authorization_servers: [as.issuer, shortLived.issuer], scopes_supported: ['mcp:admin'], bearer_methods_supported: ['header'] })
    const refused = await postModern(admin(), 'tools/list', {})
    expect(refused.status).toBe(401)
    expect(refused.headers.get('www-authenticate')).toBe(`Bearer scope="mcp:admin", resource_metadata="${app.origin}/.well-known/oauth-protected-resource/mcp/admin"`)
  })

  it('serves a token issued for it with its scope, and nowhere else; a token for /mcp does not open it', async () => {
    const adminToken = await as.clientToken('narrow', { resource: `${app.origin}/mcp/admin`, scope: 'mcp:admin' })
    const served = await callAdmin(adminToken)
    expect(served.status).toBe(200)
    expect(JSON.parse(textOf(served.message.result))).toEqual({ principal: `${as.issuer}#narrow`, scopes: ['mcp:admin'] })
    expect((await call(adminToken)).message.error?.message).toMatch(/for another resource/)
    const firstToken = await as.clientToken('machine')
    expect((await call(firstToken)).status).toBe(200)
    const foreign = await callAdmin(firstToken)
    expect(foreign.status).toBe(401)
    expect(foreign.message.error?.message).toMatch(/for another resource/)
  })

  it('refuses a token for it without its scope with 403 naming the scope', async () => {
    const toolsOnly = await callAdmin(await as.clientToken('machine', { resource: `${app.origin}/mcp/admin`, scope: 'mcp:tools' }))
    expect(toolsOnly.status).toBe(403)
    expect(toolsOnly.headers.get('www-authenticate')).toMatch(/error="insufficient_scope", scope="mcp:admin"/)
  })
})

describe('the MCP endpoint as an OAuth resource server', () => {
  it('publishes its Protected Resource Metadata (RFC 9728)', async () => {
    const response = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', app.origin))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ resource, authorization_servers: [as.issuer, shortLived.issuer], scopes_supported: ['mcp:tools'], bearer_methods_supported: ['header'] })
  })

  it('answers a request without a token with 401 naming the metadata URL', async () => {
    const { status, headers, message } = await call(undefined)
    expect(status).toBe(401)
    expect(headers.get('www-authenticate')).toBe(`Bearer scope="mcp:tools", resource_metadata="${app.origin}/.well-known/oauth-protected-resource/mcp"`)
    expect(message.error?.message).toMatch(/needs an OAuth access token/)
  })

  it('serves a valid client-credentials token; the principal is the client, qualified by its issuer', async () => {
    const { status, message } = await call(await as.clientToken())
    expect(status).toBe(200)
    expect(JSON.parse(textOf(message.result))).toEqual({ principal: `${as.issuer}#machine`, clientId: 'machine', scopes: ['mcp:tools', 'mcp:admin'] })
  })

  it('refuses each bad token with its own 401 reason, and a missing scope with 403', async () => {
    const expectRefusal = async (token: string, status: number, reason: RegExp) => {
      const response = await call(token)
      expect(response.status, String(reason)).toBe(status)
      expect(response.message.error?.message).toMatch(reason)
      expect(response.headers.get('www-authenticate')).toMatch(/resource_metadata=/)
    }
    await expectRefusal('aaa.bbb.ccc', 401, /not a well-formed JWT/)
    await expectRefusal('not-a-jwt', 401, /not active/)
    const { privateKey } = await generateKeyPair('RS256')
    const forged = await new SignJWT({ scope: 'mcp:tools', client_id: 'machine' }).setProtectedHeader({ alg: 'RS256', kid: 'forged' }).setIssuer(as.issuer).setAudience(resource).setExpirationTime('5m').sign(privateKey)
    await expectRefusal(forged, 401, /signature does not verify/)
    const foreignIssuer = await new SignJWT({}).setProtectedHeader({ alg: 'RS256' }).setIssuer('https://evil.example').setAudience(resource).setExpirationTime('5m').sign(privateKey)
    await expectRefusal(foreignIssuer, 401, /authorization server this endpoint does not accept/)
    await expectRefusal(await as.clientToken('machine', { resource: 'http://127.0.0.1:1/other' }), 401, /for another resource/)
    // Signed with the issuer's own key, so only the claims decide: no expiry, and ID tokens
    // (a nonce; Keycloak's typ "ID"; an audience that is the token's own client).
    await expectRefusal(await as.sign({ iss: as.issuer, aud: resource, sub: 'alice', scope: 'mcp:tools', iat: Math.floor(Date.now() / 1000) }, 'at+jwt'), 401, /has no expiry \(exp\)/)
    const inFiveMinutes = Math.floor(Date.now() / 1000) + 300
    await expectRefusal(await as.sign({ iss: as.issuer, aud: resource, sub: 'alice', scope: 'mcp:tools', exp: inFiveMinutes, nonce: 'n-1' }, 'JWT'), 401, /an OpenID Connect ID token, not an access token/)
    await expectRefusal(await as.sign({ iss: as.issuer, aud: resource, sub: 'alice', scope: 'mcp:tools', exp: inFiveMinutes, typ: 'ID' }), 401, /ID token/)
    await expectRefusal(await as.sign({ iss: as.issuer, aud: [resource, 'web-app'], azp: 'web-app', sub: 'alice', exp: inFiveMinutes }, 'JWT'), 401, /ID token/)
    // A Keycloak access token whose audiences include its own client is one (typ "Bearer", a scope).
    expect((await call(await as.sign({ iss: as.issuer, aud: [resource, 'web-app'], azp: 'web-app', typ: 'Bearer', sub: 'alice', scope: 'mcp:tools', exp: inFiveMinutes }, 'JWT'))).status).toBe(200)
    // The same claims typed as an access token (RFC 9068) are one.
    expect((await call(await as.sign({ iss: as.issuer, aud: resource, sub: 'alice', scope: 'mcp:tools', exp: inFiveMinutes, client_id: 'web-app' }, 'at+jwt'))).status).toBe(200)
    const shortToken = await shortLived.clientToken()
    await new Promise(done => setTimeout(done, 3000))
    await expectRefusal(shortToken, 401, /expired/)
    const narrow = await call(await as.clientToken('narrow', { scope: 'mcp:admin' }))
    expect(narrow.status).toBe(403)
    expect(narrow.headers.get('www-authenticate')).toMatch(/error="insufficient_scope", scope="mcp:tools"/)
    expect(narrow.message.error?.message).toMatch(/lacks the scope mcp:tools/)
  })

  it('checks opaque tokens by introspection: active ones pass, a revoked one is refused at once', async () => {
    const token = await as.clientToken('opaque')
    expect(token).not.toMatch(/\./)
    const { status, message } = await call(token)
    expect(status).toBe(200)
    expect(JSON.parse(textOf(message.result))).toEqual({ principal: `${as.issuer}#opaque`, clientId: 'opaque', scopes: ['mcp:tools', 'mcp:admin'] })
    const elsewhere = await call(await as.clientToken('opaque', { resource: 'http://127.0.0.1:1/other' }))
    expect(elsewhere.status).toBe(401)
    expect(elsewhere.message.error?.message).toMatch(/for another resource/)
    await as.revoke(token, 'opaque')
    const revoked = await call(token)
    expect(revoked.status).toBe(401)
    expect(revoked.message.error?.message).toMatch(/not active \(expired, revoked or unknown/)
  })

  it('refuses a token bound to a key (DPoP), JWT or introspected: it cannot be checked as a bearer token', async () => {
    // Issued by the real authorization server to a client that sent a DPoP proof: the JWT carries
    // cnf.jkt; the opaque one's introspection says token_type "DPoP" (and cnf).
    const jwt = await call(await as.clientToken('machine', { dpop: true }))
    expect(jwt.status).toBe(401)
    expect(jwt.message.error?.message).toMatch(/bound to a key \(cnf: jkt\)/)
    expect(jwt.headers.get('www-authenticate')).toMatch(/error="invalid_token"/)
    const opaque = await call(await as.clientToken('opaque', { dpop: true }))
    expect(opaque.status).toBe(401)
    expect(opaque.message.error?.message).toMatch(/of type "DPoP" \(its introspection's token_type\), and this endpoint takes Bearer tokens only/)
    // The same clients' unbound tokens pass (introspected as token_type "Bearer").
    expect((await call(await as.clientToken('opaque'))).status).toBe(200)
    expect((await call(await as.clientToken('machine'))).status).toBe(200)
  })

  it('spares the authorization server unknown opaque tokens: one sent again is remembered, and a caller sending many gets 429', async () => {
    const from = (address: string, token: string) => postModern(app.url, 'tools/call', { name: 'whoami', arguments: {} }, { headers: { 'authorization': `Bearer ${token}`, 'x-forwarded-for': address } })
    const before = await as.introspections()
    for (let n = 0; n < 5; n++) expect((await from('10.9.9.1', 'unknown-opaque-token-sent-again')).status).toBe(401)
    expect(await as.introspections()).toBe(before + 1)
    // 20 different unknown tokens in 10 s from one caller; the next is refused without asking.
    for (let n = 0; n < 20; n++) expect((await from('10.9.9.2', `unknown-opaque-token-${n}`)).status).toBe(401)
    const throttled = await from('10.9.9.2', 'unknown-opaque-token-20')
    expect(throttled.status).toBe(429)
    expect(throttled.headers.get('retry-after')).toBe('10')
    expect(throttled.message.error?.message).toMatch(/Too many access tokens the authorization server does not know came from this caller/)
    expect(await as.introspections()).toBe(before + 21)
    // Another caller, and a valid token of any caller, are not held up.
    expect((await from('10.9.9.3', 'unknown-opaque-token-elsewhere')).status).toBe(401)
    expect((await from('10.9.9.3', await as.clientToken('opaque'))).status).toBe(200)
  })

  it('lets the app vouch for its own opaque tokens (mcp:auth:token), still checking expiry and audience; its failure is a 503', async () => {
    const { status, message } = await call('api-key-of-alice')
    expect(status).toBe(200)
    expect(JSON.parse(textOf(message.result)).principal).toBe('alice')
    expect((await call('api-key-expired')).message.error?.message).toMatch(/expired/)
    expect((await call('api-key-for-elsewhere')).message.error?.message).toMatch(/for another resource/)
    // The app's own check failing is the server's trouble, not the caller's: 503, not 401.
    const failing = await call('api-key-while-the-database-is-down')
    expect(failing.status).toBe(503)
    expect(failing.message.error?.message).toMatch(/could not be checked; retry later/)
    expect((await call('api-key-of-alice')).status).toBe(200)
  })

  it('tells the mcp:auth:token hook which endpoint it judges for: a key made for /mcp does not open /mcp/admin, whatever its scopes', async () => {
    const here = await call('api-key-for-mcp-only')
    expect(here.status).toBe(200)
    expect(JSON.parse(textOf(here.message.result)).principal).toBe('bob')
    const admin = await postModern(new URL('/mcp/admin', app.origin), 'tools/call', { name: 'admin_whoami', arguments: {} }, { headers: { authorization: 'Bearer api-key-for-mcp-only' } })
    expect(admin.status).toBe(401)
  })

  it('uses an issuer\'s keys only when its metadata names that issuer (RFC 8414 §3.3)', async () => {
    // Listed as http://localhost:<port>: the same server, whose metadata names http://127.0.0.1:<port>.
    const listed = `http://localhost:${as.port}`
    const misnamed = await onFreePort(port => startFixtureOn('node', 'oauth', { port, env: { ...env(`http://127.0.0.1:${port}`), NUXT_MCP_AUTH_ISSUERS: listed } }))
    try {
      const token = await as.sign({ iss: listed, aud: `${misnamed.origin}/mcp`, sub: 'alice', scope: 'mcp:tools', exp: Math.floor(Date.now() / 1000) + 300 }, 'at+jwt')
      const refused = await postModern(misnamed.url, 'tools/call', { name: 'whoami', arguments: {} }, { headers: { authorization: `Bearer ${token}` } })
      expect(refused.status).toBe(503)
      expect(refused.message.error?.message).toMatch(/its metadata names another issuer/)
      expect(misnamed.output()).toMatch(/names the issuer "http:\/\/127\.0\.0\.1:\d+", not http:\/\/localhost:\d+/)
    }
    finally {
      await misnamed.stop()
    }
  })

  it('fetches an issuer\'s keys again after auth.jwksMaxAgeSeconds: a key the issuer dropped stops verifying', async () => {
    // An authorization server and an app of their own: the keys are rotated here.
    const started = await startWithAuthorizationServers([{}], (port, servers) =>
      startFixtureOn('node', 'oauth', { port, env: { ...env(`http://127.0.0.1:${port}`), NUXT_MCP_AUTH_ISSUERS: servers[0]!.issuer, NUXT_MCP_AUTH_JWKS_MAX_AGE_SECONDS: '1' } }))
    const app2 = started.app
    const rotating = started.servers[0]!
    try {
      const signedWithOldKey = await rotating.clientToken()
      const callApp2 = (token: string) => postModern(app2.url, 'tools/call', { name: 'whoami', arguments: {} }, { headers: { authorization: `Bearer ${token}` } })
      const keysFetchedAt = Date.now()
      expect((await callApp2(signedWithOldKey)).status).toBe(200)
      await rotating.restartWithNewKeys()
      // Past the keys' age the next token makes them fetched again, and the old key is gone.
      await new Promise(done => setTimeout(done, Math.max(0, keysFetchedAt + 1500 - Date.now())))
      const refused = await callApp2(signedWithOldKey)
      expect(refused.status).toBe(401)
      expect(refused.message.error?.message).toMatch(/signature does not verify/)
      expect((await callApp2(await rotating.clientToken())).status).toBe(200)
    }
    finally {
      await app2.stop()
      await rotating.stop()
    }
  })

  it('refuses the same way in the legacy era: the 401 comes before any session', async () => {
    const response = await fetch(app.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    })
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toBe(`Bearer scope="mcp:tools", resource_metadata="${app.origin}/.well-known/oauth-protected-resource/mcp"`)
    expect(response.headers.get('mcp-session-id')).toBeNull()
  })

  it('lets the v2 SDK Client discover the authorization server and authenticate itself (client credentials), both eras', async () => {
    for (const mode of [{ pin: '2026-07-28' as const }, 'legacy' as const]) {
      const client = new ModernClient({ name: 'oauth-m2m', version: '1.0.0' }, { versionNegotiation: { mode } })
      const authProvider = new ClientCredentialsProvider({ clientId: 'machine', clientSecret: 'machine-secret-of-the-test-client', scope: 'mcp:tools', expectedIssuer: as.issuer })
      await client.connect(new ModernTransport(app.url, { authProvider }))
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('echo: hi')
      expect(JSON.parse(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).principal).toBe(`${as.issuer}#machine`)
      await client.close()
    }
  })

  it('serves a legacy session with a token, and binds it to the token\'s principal', async () => {
    const token = await as.clientToken()
    const client = await connectLegacy(app.url, { requestInit: { headers: { authorization: `Bearer ${token}` } } })
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'old' } }))).toBe('echo: old')
    // The same client id, but from the other issuer: another principal, so not this session's.
    const sessionId = client.transport?.sessionId
    expect(sessionId).toBeTruthy()
    const intruder = await fetch(app.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': sessionId!, 'authorization': `Bearer ${await shortLived.clientToken()}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    })
    expect(intruder.status).toBe(403)
    expect(await intruder.text()).toMatch(/opened by another principal/)
    await client.close()
  })

  it('accepts tokens signed with a rotated key (the JWKS is fetched again for an unknown key)', async () => {
    await as.restartWithNewKeys()
    // jose refetches a key set at most every 5 s after a successful fetch.
    await new Promise(done => setTimeout(done, 5500))
    expect((await call(await as.clientToken())).status).toBe(200)
  }, 30_000)

  it('keeps accepting tokens while the issuer is down, with its keys cached; without them, 503', async () => {
    const token = await as.clientToken()
    const opaque = await as.clientToken('opaque')
    await as.stop()
    expect((await call(token)).status).toBe(200)
    // An opaque token needs the issuer for every check: 503, not a hang and not a 401.
    const unchecked = await call(opaque)
    expect(unchecked.status).toBe(503)
    expect(unchecked.message.error?.message).toMatch(/could not be checked with the authorization server; retry later/)
    const fresh = await startApp()
    try {
      const started = Date.now()
      const response = await postModern(fresh.url, 'tools/list', {}, { headers: { authorization: `Bearer ${token}` } })
      expect(response.status).toBe(503)
      expect(response.headers.get('retry-after')).toBe('5')
      expect(Date.now() - started).toBeLessThan(12_000)
    }
    finally {
      await fresh.stop()
    }
  }, 30_000)
})

