import type { H3Event } from 'h3'
import { InMemoryServerEventBus, createMcpHandler } from '@modelcontextprotocol/server'
import type { McpHttpHandler } from '@modelcontextprotocol/server'
import { createAuthContext, McpUnauthorizedError, settlePrincipal } from './auth'
import { pageLinkBase } from '../../elicitation/page/flow'
import { resolveOAuthSettings } from '../oauth/settings'
import type { McpAuthContext, McpCaller, McpTokenContext } from './auth'
import { resolveStateSecret, toList } from '../../common/config'
import { runInMcpScope } from '../../common/context'
import { isRecord } from '../../common/is-record'
import { createMemoryStore } from '../../common/store/memory'
import { deferredStore } from '../../cluster/deferred-store'
import type { McpRequestScope } from '../../common/context'
import { refuseParamHeaders } from './param-headers'
import { RequestScope } from './request-scope'
import { jsonRpcError } from '../http/errors'
import { readLimitedBody } from '../../common/read-body'
import { isJsonContentType, parseJson, sendResponse, toSdkRequest, watchDisconnect } from './http-io'
import { classifyEra } from './era'
import { graceIdleConnection } from './keep-alive'
import { createMcpRegistry } from '../../mcp/definitions/registry'
import { endpointToolSubset, requestToolSubset } from '../../mcp/definitions/tool-subset'
import { checkOriginPolicy, publicHostOf } from './security'
import { clientAddressOf } from './client-address'
import type { OriginPolicy } from './security'
import { createMcpServer } from '../../mcp/server/server-factory'
import { WebResponseSink } from '../http/response-sink'
import { runRequestMiddleware } from './middleware'
import { createSharedEventBus } from '../shared/event-bus'
import { connectListChanges } from '../../mcp/server/list-changes'
import { advertisesListChanged } from '../../mcp/server/server-factory'
import { listeningHook } from '../../common/hooks'
import { anonymousCacheWarning, createResultCacheStore } from '../../mcp/caching/store'
import type { McpHook } from '../../common/hooks'
import type { ResponseSink } from '../http/response-sink'
import type { McpEndpoint, McpEndpointOptions } from './endpoint-types'

/** The requests an `X-MCP-Tools` header bears on: the tool list and calls, and `initialize`, where a legacy client meets a bad one first. */
const TOOL_SUBSET_METHODS = new Set(['initialize', 'tools/list', 'tools/call'])

export type { McpEndpoint, McpEndpointOptions } from './endpoint-types'

/**
 * Whether h3 got a stand-in Node response (Workers, Bun, Deno): it buffers every write until
 * `end()`. A real Node response has its socket while the handler runs.
 */
function isStandInResponse(event: H3Event): boolean {
  return !event.node.res.socket
}

/** The JSON-RPC id of a request body, for an error answered before the SDK reads it. */
function jsonRpcIdOf(body: unknown): string | number | null {
  return isRecord(body) && (typeof body.id === 'string' || typeof body.id === 'number') ? body.id : null
}

function legacyOff(body: unknown): Response {
  const id = jsonRpcIdOf(body)
  return jsonRpcError(400, -32602, `This server speaks MCP ${MODERN_VERSION} only (stateless requests): legacy sessions (initialize, protocol ≤ 2025-11-25) are off here, as they need one long-lived process (mcp.legacy). Connect with a client that speaks ${MODERN_VERSION}; see the module's deployment docs.`, {}, id, { supported: [MODERN_VERSION] })
}

const MODERN_VERSION = '2026-07-28'

/** Says (once, in the server's log) and returns why an endpoint with OAuth issuers refuses every request. */
function bearerLeftOut(route: string): string {
  const message = `The MCP endpoint ${route} has OAuth issuers (mcp.auth.issuers, or NUXT_MCP_AUTH_ISSUERS at run time), but this build left the token check out: it was built for Cloudflare Workers while mcp.auth named no issuer. Every request is refused rather than served without its token check. Name the issuers in nuxt.config (mcp.auth.issuers) and build again.`
  console.error(`[nuxt-mcp-elicitation] ${message}`)
  return message
}

/**
 * Creates the endpoint: Origin/Host policy, authentication, one body read, then per request the
 * era decision — `initialize` and session traffic go to legacy sessions, requests carrying the
 * 2026-07-28 `_meta` envelope to the SDK's stateless modern handler.
 *
 * @example
 * ```ts
 * const endpoint = createMcpEndpoint({ definitions, config, production: true })
 * export default defineEventHandler(event => endpoint.serve(event))
 * ```
 */
export function createMcpEndpoint(options: McpEndpointOptions): McpEndpoint {
  const { config } = options
  const registry = createMcpRegistry(options.definitions)
  const shared = options.shared
  const store = options.store ?? (shared ? deferredStore(shared) : createMemoryStore())
  const endpointRoute = options.route ?? '/mcp'
  // The tools this endpoint serves when its config narrows them (`mcp.tools`), resolved once.
  const toolSubset = endpointToolSubset(registry, config.tools, options.toolsOption ?? 'mcp.tools')
  const cached = [...registry.tools.values(), ...registry.resources.values(), ...registry.templates]
  const cacheStore = createResultCacheStore(cached, shared, options.cacheStorage, config.cache)
  // Only an endpoint with a task-capable tool has tasks, and only where the build included them.
  const tasks = registry.tasks && config.tasks.background ? options.tasks?.(config.tasks, { announce: !options.production, keepEndedAnswers: !options.production, ...(shared && { shared }) }) : undefined
  const secret = resolveStateSecret(config, options.production)
  // Where a question the client cannot show is linked to: the configured public URL, never the request's Host.
  const linkBase = config.elicitation.page.enabled ? pageLinkBase(config.publicUrl, options.baseURL ?? '/') : undefined
  // A principal's page needs an mcp:auth hook to name the person in the browser (a bearer token
  // never reaches one): asked per call, as hooks may be added at run time.
  const page = linkBase === undefined ? undefined : { linkBase, endpointKey: options.key ?? '', identifiesPeople: () => listeningHook(options.authenticate) !== undefined }
  const deps = { registry, config, secret, store, route: endpointRoute, observe: options.observe, serverHook: options.serverHook, ...(cacheStore && { cacheStore }), ...(tasks && { tasks }), ...(toolSubset && { toolSubset }), ...(page && { page }) }
  // No session table (and no idle sweeper) where legacy is off: on Workers a timer would belong
  // to the request that happened to create the endpoint.
  if (config.legacy !== false && !options.legacy) {
    console.warn('[nuxt-mcp-elicitation] mcp.legacy is on at run time (NUXT_MCP_LEGACY), but this build left legacy sessions out (mcp.legacy was false when it was built, as on a Worker): legacy clients get HTTP 400. Build with mcp.legacy: true to serve them.')
  }
  const sessions = config.legacy === false ? undefined : options.legacy?.(deps, config, shared)
  // Each modern request gets a server built for it, holding its scope: nothing on the modern path
  // depends on the request context following the SDK's awaits. A Map emptied when the request is
  // handled, not a WeakMap: young-generation GCs keep a WeakMap's values whatever their keys, so
  // every request's scope (event, request, response) outlived them until the next full GC.
  const scopes = new Map<Request, McpRequestScope>()
  // List changes travel on one bus: to this process's listeners, or through Redis to every instance's.
  const bus = shared ? createSharedEventBus(shared) : new InMemoryServerEventBus()
  const stopListChanges = connectListChanges(endpointRoute, bus, advertisesListChanged(deps))
  const modern: McpHttpHandler = createMcpHandler(
    ({ requestInfo }) => createMcpServer({ ...deps, scope: requestInfo && scopes.get(requestInfo) }, 'modern'),
    { legacy: 'reject', maxRequestBodySize: config.maxBodySize, bus },
  )
  const publicHost = publicHostOf(config.publicUrl)
  const trustedProxies = toList(config.trustedProxies)
  const policy: OriginPolicy = { allowedHosts: toList(config.allowedHosts), allowedOrigins: toList(config.allowedOrigins), ...(publicHost && { publicHost }) }

  const oauth = resolveOAuthSettings(config, endpointRoute, options.baseURL)
  const bearer = oauth && options.bearerCheck?.(oauth)
  // Issuers set at run time on a build without the token check: refused, never served unchecked.
  const unchecked = oauth && !bearer ? bearerLeftOut(endpointRoute) : undefined
  // Said at the first request, when it is known whether an mcp:auth hook listens (hooks may be added at run time).
  let anonymousCaches = bearer ? undefined : anonymousCacheWarning(endpointRoute, cached)

  /**
   * Who is calling: the built-in OAuth check (when `mcp.auth` is on), then the app's `mcp:auth`
   * hooks, which see the verified token and may refine or refuse. A refusal comes back as the
   * response to send.
   */
  async function identify(event: H3Event, authenticate: McpHook<McpAuthContext, Promise<void>>['call'] | undefined): Promise<McpCaller | Response> {
    const auth = createAuthContext(event, endpointRoute)
    if (bearer) {
      const verifyToken = listeningHook(options.verifyToken)
      const verified = await bearer(event.node.req.headers.authorization, verifyToken && (async (token) => {
        const context: McpTokenContext = { token, event, route: endpointRoute, resource: oauth.resource }
        await verifyToken(context)
        return context.claims
      }), clientAddressOf(event.node.req, trustedProxies))
      if (verified instanceof Response) return verified
      auth.authInfo = verified.authInfo
      auth.principal = verified.principal
    }
    try {
      await authenticate?.(auth)
      settlePrincipal(auth)
    }
    catch (error) {
      if (error instanceof McpUnauthorizedError) return jsonRpcError(401, -32001, `Unauthorized: ${error.message}`, { 'www-authenticate': error.wwwAuthenticate })
      throw error
    }
    return { ...(auth.principal !== undefined && { principal: auth.principal }), ...(auth.authInfo !== undefined && { authInfo: auth.authInfo }) }
  }

  async function route(event: H3Event, res: ResponseSink): Promise<Response | undefined> {
    if (unchecked) return jsonRpcError(500, -32603, unchecked)
    const refusal = checkOriginPolicy(event, policy)
    if (refusal) return refusal
    const method = event.method
    if (method !== 'POST' && method !== 'GET' && method !== 'DELETE') {
      return jsonRpcError(405, -32000, `Method ${method} is not allowed on the MCP endpoint: use POST (and GET/DELETE for legacy sessions).`, { allow: 'POST, GET, DELETE' })
    }
    // Without the OAuth check and an mcp:auth hook the caller is anonymous: nothing to build or await.
    const authenticate = listeningHook(options.authenticate)
    if (anonymousCaches) {
      if (!authenticate) console.warn(anonymousCaches)
      anonymousCaches = undefined
    }
    const caller = bearer || authenticate ? await identify(event, authenticate) : {}
    if (caller instanceof Response) return caller
    let parsedBody: unknown
    if (method === 'POST') {
      if (!isJsonContentType(event.node.req.headers['content-type'])) {
        return jsonRpcError(415, -32000, `Unsupported Media Type: Content-Type is "${event.node.req.headers['content-type'] ?? '(none)'}"; send JSON-RPC as "application/json".`)
      }
      const body = await readLimitedBody(event, config.maxBodySize)
      if (!body.ok) return jsonRpcError(body.status, -32000, body.message)
      const parsed = parseJson(body.text)
      if (!parsed.ok) return jsonRpcError(400, -32700, `Parse error: the request body is not valid JSON (${parsed.message}). Send one JSON-RPC message as application/json.`)
      parsedBody = parsed.value
    }
    else if (!event.node.req.headers['mcp-session-id'] && event.node.req.headers['mcp-protocol-version'] === MODERN_VERSION) {
      return jsonRpcError(405, -32000, `Method ${method} is not used by protocol ${MODERN_VERSION}: send every request as a POST.`, { allow: 'POST' })
    }
    const disconnected = watchDisconnect(res)
    const legacy = classifyEra(method, event.node.req.headers, parsedBody) === 'legacy'
    const beforeRequest = listeningHook(options.beforeRequest)
    if (beforeRequest) {
      const middleware = { event, era: legacy ? 'legacy' as const : 'modern' as const, method, body: parsedBody, route: endpointRoute, ...caller }
      const refused = await runRequestMiddleware(beforeRequest, middleware)
      if (refused) return refused
    }
    const scope = new RequestScope(event, legacy ? 'legacy' : 'modern', endpointRoute, disconnected, parsedBody, caller, secret)
    const address = clientAddressOf(event.node.req, trustedProxies)
    scope.address = address
    // X-MCP-Tools is read on the requests it bears on, in both eras: a legacy session's subset is
    // the one its current request carries (docs/clients.md says why), and a refusal is an HTTP
    // 400, as in @nuxtjs/mcp-toolkit, only once origin and authentication have passed. Only on
    // `initialize` (where a legacy client meets a bad header first), `tools/list` and
    // `tools/call`: a client's answer to a question, or a notification, is never refused for it
    // (a guard that flips mid-session would otherwise lose the answer a tool waits for). Not on
    // `server/discover` either: the v2 client reads a refused probe as "no 2026-07-28 here" and
    // hides the message; its next request (tools/list) carries the refusal instead.
    if (method === 'POST' && isRecord(parsedBody) && typeof parsedBody.method === 'string' && TOOL_SUBSET_METHODS.has(parsedBody.method)) {
      const asked = await requestToolSubset(registry, toolSubset, event.node.req.headers['x-mcp-tools'], scope)
      if (asked && !asked.ok) return jsonRpcError(400, -32602, asked.problem, {}, jsonRpcIdOf(parsedBody))
      if (asked) scope.toolSubset = asked.subset
    }
    if (legacy) {
      if (!sessions) return legacyOff(parsedBody)
      const exchange = { req: event.node.req, res, body: parsedBody, deferAbort: disconnected.defer }
      const owner = { ...caller, address }
      return runInMcpScope(scope, () => sessions.handle(exchange, owner, (id) => { scope.sessionId = id }))
    }
    // SEP-2243's header check, which the SDK runs for McpServer only (after its own header checks: a bad version is its to refuse).
    const mismatch = event.node.req.headers['mcp-protocol-version'] === MODERN_VERSION ? await refuseParamHeaders(event.node.req.headers, parsedBody, registry, scope) : undefined
    if (mismatch) return mismatch
    const requestOptions = { parsedBody, ...(caller.authInfo && { authInfo: caller.authInfo }) }
    const request = toSdkRequest(event)
    scopes.set(request, scope)
    // (The SDK builds the request's server before `fetch` settles: the scope is not needed after.)
    return runInMcpScope(scope, () => modern.fetch(request, requestOptions)).finally(() => scopes.delete(request))
  }

  /** The person on the question page, as the app's `mcp:auth` hooks name them (no bearer token: a browser has none). */
  async function identifyPerson(event: H3Event): Promise<string | undefined> {
    const authenticate = listeningHook(options.authenticate)
    if (!authenticate) return undefined
    const auth = createAuthContext(event, endpointRoute)
    try {
      await authenticate(auth)
      settlePrincipal(auth)
    }
    catch (error) {
      if (error instanceof McpUnauthorizedError) return undefined
      throw error
    }
    return auth.principal
  }

  return {
    registry,
    sessions,
    tasks,
    page: { store, config, secret, route: endpointRoute, identify: identifyPerson },
    serve: async (event) => {
      if (isStandInResponse(event)) {
        // A legacy session's transport writes into a sink that becomes the web Response.
        const sink = new WebResponseSink()
        return await route(event, sink) ?? await sink.response
      }
      graceIdleConnection(event.node.req, event.node.res)
      const response = await route(event, event.node.res)
      if (response) {
        await sendResponse(event, response)
        return undefined
      }
      // `undefined`: a legacy session's transport answers on the Node response itself, maybe
      // later (its SSE headers go out with the first event: a handler that waits on a timer
      // first has written nothing yet). Marked handled, or h3 would pass the request on to the
      // next handler, whose empty answer (a 204) would reach the client first.
      event._handled = true
      return undefined
    },
    close: async () => {
      stopListChanges()
      tasks?.close()
      await sessions?.closeAll()
      await modern.close()
      await shared?.then(state => state.close(), () => {})
    },
  }
}
