// A real OAuth 2.1 / OpenID Connect authorization server for the tests: oidc-provider (a
// certified implementation from npm) on loopback, run as its own process by test/utils/oidc.ts.
// Resource indicators give access tokens for the MCP endpoint's resource: JWTs, except to the
// client `opaque` and a registered client named 'opaque-token host', which get opaque ones (checked by introspection as the client `mcp-server`).
// Client credentials, introspection, revocation and dynamic registration are on. Keys come from the environment, so a restart
// with other keys is a key rotation.
//   node oidc-server.mjs <port>   env: OIDC_RESOURCE, OIDC_JWKS (JSON), OIDC_TOKEN_TTL (seconds)
// Port 0 binds a port of the system's choosing (nothing can take it in between); the issuer is
// named after the port bound, so the HTTP server listens before the provider is made.
import { createServer } from 'node:http'
import Provider from 'oidc-provider'

let handle = (_req, res) => { res.statusCode = 503; res.end() }
const server = createServer((req, res) => handle(req, res))
await new Promise((resolve, reject) => {
  server.once('error', reject)
  server.listen(Number(process.argv[2]), '127.0.0.1', resolve)
})
const issuer = `http://127.0.0.1:${server.address().port}`
const resource = process.env.OIDC_RESOURCE
const ttl = Number(process.env.OIDC_TOKEN_TTL ?? 300)
/** A dynamically registered client of this name gets opaque access tokens too. */
const OPAQUE_HOST = 'opaque-token host'

const provider = new Provider(issuer, {
  clients: [
    { client_id: 'machine', client_secret: 'machine-secret-of-the-test-client', grant_types: ['client_credentials'], response_types: [], redirect_uris: [], scope: 'mcp:tools mcp:admin' },
    { client_id: 'opaque', client_secret: 'opaque-secret-of-the-test-client', grant_types: ['client_credentials'], response_types: [], redirect_uris: [], scope: 'mcp:tools mcp:admin' },
    { client_id: 'mcp-server', client_secret: 'mcp-server-secret-of-the-test-client', grant_types: ['client_credentials'], response_types: [], redirect_uris: [] },
    { client_id: 'narrow', client_secret: 'narrow-secret-of-the-test-client', grant_types: ['client_credentials'], response_types: [], redirect_uris: [], scope: 'mcp:admin' },
  ],
  jwks: JSON.parse(process.env.OIDC_JWKS),
  // offline_access lets a client register for refresh tokens, as desktop MCP hosts do.
  scopes: ['openid', 'offline_access', 'mcp:tools', 'mcp:admin'],
  features: {
    devInteractions: { enabled: true },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    revocation: { enabled: true },
    registration: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource,
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx, indicator, client) => ({
        scope: 'mcp:tools mcp:admin',
        audience: indicator,
        accessTokenTTL: ttl,
        ...(client.clientId === 'opaque' || client.clientName === OPAQUE_HOST ? { accessTokenFormat: 'opaque' } : { accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } }),
      }),
    },
  },
})
// How many introspection requests reached it, for the tests that check what is spared the
// authorization server (GET /test/introspections).
let introspections = 0
provider.use(async (ctx, next) => {
  if (ctx.method === 'GET' && ctx.path === '/test/introspections') {
    ctx.body = { count: introspections }
    return
  }
  if (ctx.method === 'POST' && ctx.path === '/token/introspection') introspections++
  await next()
})
handle = provider.callback()
console.log(`oidc ready ${issuer}`)
