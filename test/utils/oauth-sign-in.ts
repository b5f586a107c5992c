import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { OAuthClientProvider, OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client'
import type { Page } from 'playwright-core'
import { withFailureScreenshot } from './browser'

/**
 * The client's redirect URI: a real loopback HTTP server, as a desktop MCP host runs one. Each
 * authorization response that reaches it is handed to whoever waits in {@link next}.
 */
export interface CallbackServer {
  redirectUrl: string
  /** The query of the next request to the callback (`code`, `state`, `iss` or `error`); rejects after 30 s. */
  next: () => Promise<URLSearchParams>
  close: () => Promise<void>
}

export async function startCallbackServer(): Promise<CallbackServer> {
  const waiting: ((params: URLSearchParams) => void)[] = []
  const arrived: URLSearchParams[] = []
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    if (url.pathname !== '/callback') {
      response.writeHead(404).end()
      return
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end('<p>Signed in. You may close this window.</p>')
    const resolve = waiting.shift()
    if (resolve) resolve(url.searchParams)
    else arrived.push(url.searchParams)
  })
  await new Promise<void>(done => server.listen(0, '127.0.0.1', done))
  const address = server.address()
  if (typeof address !== 'object' || address === null) throw new Error('callback server has no port')
  return {
    redirectUrl: `http://127.0.0.1:${address.port}/callback`,
    next: () => {
      const ready = arrived.shift()
      if (ready) return Promise.resolve(ready)
      return new Promise((done, fail) => {
        const timer = setTimeout(() => fail(new Error('No authorization response reached the callback within 30 s')), 30_000)
        waiting.push((params) => {
          clearTimeout(timer)
          done(params)
        })
      })
    },
    close: () => new Promise(done => server.close(() => done())),
  }
}

/**
 * An interactive OAuth client as a desktop host implements one: registers itself dynamically
 * (public client, PKCE), keeps what it is given in memory, and opens the authorization URL in
 * the browser, where {@link signInAndConsent} plays the person. Structurally also a v1 SDK
 * `OAuthClientProvider`.
 */
export class BrowserOAuthProvider implements OAuthClientProvider {
  registered?: StoredOAuthClientInformation
  saved?: StoredOAuthTokens
  /** How many times the client sent the person to the authorization server. */
  redirects = 0
  private verifier = ''
  private discovered?: OAuthDiscoveryState

  constructor(private readonly callback: CallbackServer, private readonly page: Page, private readonly login: string, private readonly clientName = 'nuxt-mcp-elicitation test host') {}

  get redirectUrl(): string {
    return this.callback.redirectUrl
  }

  get clientMetadata() {
    return {
      client_name: this.clientName,
      redirect_uris: [this.callback.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.registered
  }

  saveClientInformation(information: StoredOAuthClientInformation): void {
    this.registered = information
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.saved
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.saved = tokens
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.redirects++
    await signInAndConsent(this.page, authorizationUrl, this.login)
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier
  }

  codeVerifier(): string {
    return this.verifier
  }

  /** Kept beside the verifier so the callback is checked against the server that was asked (SEP-2352). */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovered = state
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovered
  }
}

/**
 * Plays the person at oidc-provider's development pages: signs in as `login` (any password) and
 * grants the consent; the browser then lands on the client's callback. The authorization server's
 * cookies are cleared first, so whoever signed in before is not signed in still.
 */
export async function signInAndConsent(page: Page, authorizationUrl: URL, login: string): Promise<void> {
  await withFailureScreenshot(page, `oauth-sign-in-${login}`, async () => {
    await page.context().clearCookies()
    await page.goto(authorizationUrl.href)
    await page.locator('input[name="login"]').fill(login)
    await page.locator('input[name="password"]').fill('any password will do')
    await page.locator('button[type="submit"]').click()
    await page.locator('input[name="prompt"][value="consent"]').waitFor({ state: 'attached' })
    await page.locator('button[type="submit"]').click()
    await page.waitForURL(url => url.pathname === '/callback')
  })
}
