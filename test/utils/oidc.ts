import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'
import { SignJWT, exportJWK, generateKeyPair, importJWK } from 'jose'
import type { JWTPayload } from 'jose'
import { repoRoot } from './fixture'
import { onFreePort } from '../../scripts/ports.mjs'

/** The test authorization server (test/utils/oidc-server.mjs) and how to get tokens from it. */
export interface AuthorizationServer {
  issuer: string
  port: number
  /**
   * A client-credentials access token for `resource` (default: the provider's default resource);
   * with `dpop`, requested with a DPoP proof (RFC 9449), so the token is bound to a key of its own.
   */
  clientToken: (client?: TestClient, options?: { resource?: string, scope?: string, dpop?: boolean }) => Promise<string>
  /** How many introspection requests reached the server since it started. */
  introspections: () => Promise<number>
  /** Revokes a token at the revocation endpoint (RFC 7009), as the client it was issued to. */
  revoke: (token: string, client: TestClient) => Promise<void>
  /**
   * Signs `claims` with the server's current key, as the server would: for tokens it will not
   * issue by the client-credentials grant (an ID token, one without `exp`).
   */
  sign: (claims: JWTPayload, typ?: string) => Promise<string>
  /** Starts the server again on the same port, with new signing keys. */
  restartWithNewKeys: () => Promise<void>
  stop: () => Promise<void>
}

interface JsonWebKeyWithKid extends Record<string, unknown> { kid: string }

/** The confidential clients of test/utils/oidc-server.mjs, by id: their secrets. */
export const TEST_CLIENTS = {
  'machine': 'machine-secret-of-the-test-client',
  'narrow': 'narrow-secret-of-the-test-client',
  'opaque': 'opaque-secret-of-the-test-client',
  'mcp-server': 'mcp-server-secret-of-the-test-client',
}
export type TestClient = keyof typeof TEST_CLIENTS

function basic(client: TestClient): string {
  return `Basic ${btoa(`${client}:${TEST_CLIENTS[client]}`)}`
}

async function newJwks(): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  const jwk = await exportJWK(privateKey)
  return JSON.stringify({ keys: [{ ...jwk, alg: 'RS256', use: 'sig', kid: `k-${Date.now()}` }] })
}

/** Starts test/utils/oidc-server.mjs on `port` (0: one the system picks) and resolves with the port it bound. */
async function launch(port: number, env: Record<string, string>): Promise<{ child: ChildProcess, port: number }> {
  const child = spawn(process.execPath, [resolve(repoRoot, 'test/utils/oidc-server.mjs'), String(port)], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let log = ''
  let out = ''
  child.stderr?.on('data', (chunk: Buffer) => { log += chunk.toString() })
  const bound = await new Promise<number>((done, fail) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const ready = /oidc ready http:\/\/127\.0\.0\.1:(\d+)/.exec(out)
      if (ready) done(Number(ready[1]))
    })
    child.once('exit', code => fail(new Error(`oidc-provider exited (${code}):\n${log}`)))
  })
  return { child, port: bound }
}

/** A DPoP proof (RFC 9449 §4) of a fresh key, for a POST to `url`. */
async function dpopProof(url: string): Promise<string> {
  const { privateKey, publicKey } = await generateKeyPair('ES256')
  return new SignJWT({ htm: 'POST', htu: url, jti: crypto.randomUUID() })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: await exportJWK(publicKey) })
    .setIssuedAt()
    .sign(privateKey)
}

/**
 * Starts oidc-provider on a loopback port it binds itself (port 0), issuing JWT access tokens for `resource`.
 *
 * @example
 * ```ts
 * const as = await startAuthorizationServer('http://127.0.0.1:4000/mcp')
 * const token = await as.clientToken()
 * ```
 */
export async function startAuthorizationServer(resource: string, options: { tokenTtlSeconds?: number } = {}): Promise<AuthorizationServer> {
  let jwks = ''
  const env = () => newJwks().then((made) => {
    jwks = made
    return { OIDC_RESOURCE: resource, OIDC_JWKS: made, OIDC_TOKEN_TTL: String(options.tokenTtlSeconds ?? 300) }
  })
  // Port 0 first: the server says which port it got. A restart needs that port again (the
  // issuer names it), and gets it back unless another process took it meanwhile.
  const first = await launch(0, await env())
  const port = first.port
  let child = first.child
  const stopChild = async () => {
    // A child killed by a signal has `signalCode` set and `exitCode` still null.
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise(done => child.once('exit', done))
    child.kill()
    await exited
  }
  const issuer = `http://127.0.0.1:${port}`
  return {
    issuer,
    port,
    async clientToken(client = 'machine', { resource: forResource = resource, scope = 'mcp:tools mcp:admin', dpop = false } = {}) {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'authorization': basic(client), ...(dpop && { dpop: await dpopProof(`${issuer}/token`) }) },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource: forResource, scope }),
      })
      const body: unknown = await response.json()
      if (!response.ok || typeof body !== 'object' || body === null || !('access_token' in body) || typeof body.access_token !== 'string') throw new Error(`no token: ${response.status} ${JSON.stringify(body)}`)
      return body.access_token
    },
    async introspections() {
      const body: unknown = await (await fetch(`${issuer}/test/introspections`)).json()
      if (typeof body !== 'object' || body === null || !('count' in body) || typeof body.count !== 'number') throw new Error(`no count: ${JSON.stringify(body)}`)
      return body.count
    },
    async revoke(token, client) {
      const response = await fetch(`${issuer}/token/revocation`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'authorization': basic(client) },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
      })
      if (!response.ok) throw new Error(`revocation failed: ${response.status} ${await response.text()}`)
    },
    async sign(claims, typ) {
      const [jwk] = (JSON.parse(jwks) as { keys: (JsonWebKeyWithKid)[] }).keys
      const key = await importJWK(jwk!, 'RS256')
      return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: jwk!.kid, ...(typ !== undefined && { typ }) }).sign(key)
    },
    async restartWithNewKeys() {
      await stopChild()
      child = (await launch(port, await env())).child
    },
    stop: stopChild,
  }
}

/**
 * Starts authorization servers for an app's resource, then the app: the app must be told its own
 * URL before it starts (its resource names its port), so it cannot bind port 0. Its port is drawn
 * with `onFreePort`, and when another process took it before the app bound it, the servers are
 * stopped and everything starts again on another port.
 *
 * @example
 * ```ts
 * const { app, servers: [as], resource } = await startWithAuthorizationServers([{}], (port, [as]) => startFixtureOn('node', 'oauth', { port, env: { NUXT_MCP_AUTH_ISSUERS: as!.issuer } }))
 * ```
 */
export function startWithAuthorizationServers<T>(servers: { tokenTtlSeconds?: number }[], startApp: (port: number, servers: AuthorizationServer[]) => Promise<T>): Promise<{ app: T, servers: AuthorizationServer[], resource: string }> {
  return onFreePort(async (port: number) => {
    const resource = `http://127.0.0.1:${port}/mcp`
    const started = await Promise.all(servers.map(options => startAuthorizationServer(resource, options)))
    try {
      return { app: await startApp(port, started), servers: started, resource }
    }
    catch (error) {
      await Promise.all(started.map(server => server.stop()))
      throw error
    }
  })
}
