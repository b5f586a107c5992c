import type { H3Event } from 'h3'
import { useNitroApp, useRuntimeConfig, useStorage } from 'nitropack/runtime'
import definitions from '#mcp-elicitation/definitions'
import views, { viewTools } from '#mcp-elicitation/views'
import skills from '#mcp-elicitation/skills'
import { serveSkills } from '#mcp-elicitation/skills-runtime'
import { endpointKeys, route as defaultRoute } from '#mcp-elicitation/options'
import { otel } from '#mcp-elicitation/otel'
import { createTaskRuntime } from '#mcp-elicitation/tasks'
import { createLegacySessions } from '#mcp-elicitation/legacy'
import { createBearerCheck } from '#mcp-elicitation/bearer'
import { jsonSchemaArguments } from '#mcp-elicitation/json-schema'
import { createMcpEndpoint } from './transport/door/endpoint'
import type { McpEndpoint } from './transport/door/endpoint'
import { configOfEndpoint, envVariableOf } from './common/config'
import type { McpServerConfig } from './common/config'
import type { McpDefinitions } from './mcp/definitions/registry'
import type { McpSharedState } from './cluster/shared-state'
import { openRedisState } from './cluster/open-redis-state'
import { watchQuestions } from './elicitation/question-events'
import { createCallTracer, traceQuestions, type McpCallTracer } from './mcp/observing/tracing'
import { mcpHookOf } from './hooks'

/** The endpoints made so far, by route. */
const endpoints = new Map<string, McpEndpoint>()
/** Each endpoint's connection to the shared state, by route (its keys and channels carry the route). */
const sharedByRoute = new Map<string, Promise<McpSharedState>>()
let stopWatchingQuestions: (() => void) | undefined
// One tracer for every endpoint; questions are traced once, whatever endpoint asks.
const callTracer: McpCallTracer | undefined = otel && createCallTracer(otel)
let stopTracingQuestions: (() => void) | undefined

/** Every route the app serves MCP at: `mcp.route`, then one per `server/mcp/<key>/` endpoint. */
export const mcpRoutes: string[] = Object.keys(endpointKeys)

/**
 * The route of the endpoint `event` was routed to (Nitro's router records the route it matched,
 * after `prefix` for a route derived from an endpoint's), `mcp.route` when unknown.
 *
 * @example
 * ```ts
 * endpointRouteOf(event) // '/mcp/admin'
 * endpointRouteOf(event, '/.well-known/oauth-protected-resource') // '/mcp/admin'
 * ```
 */
export function endpointRouteOf(event: H3Event, prefix = ''): string {
  const matched = event.context.matchedRoute?.path ?? ''
  const route = matched.startsWith(prefix) ? matched.slice(prefix.length) : ''
  return Object.hasOwn(endpointKeys, route) ? route : defaultRoute
}

/**
 * The settings the endpoint at `route` runs with: the app's, with its `mcp.endpoints.<key>` laid over them.
 *
 * @example
 * ```ts
 * const config = endpointConfigAt('/mcp/admin', useRuntimeConfig().mcp)
 * ```
 */
export function endpointConfigAt(route: string, appConfig: McpServerConfig): McpServerConfig {
  return configOfEndpoint(appConfig, endpointKeys[route] ?? '')
}

/** The definitions discovered for the endpoint at `route`. */
function definitionsAt(route: string): McpDefinitions {
  const key = endpointKeys[route] ?? ''
  const found = definitions[key] ?? { tools: [], resources: [], prompts: [] }
  // Tools declared inside views belong to the default endpoint, as their files are not in any endpoint's folder.
  return { ...found, tools: key === '' ? [...found.tools, ...viewTools] : found.tools, views, ...(serveSkills && skills[key] && { skills: serveSkills(skills[key], { dev: import.meta.dev }) }), ...(jsonSchemaArguments && { jsonSchemaArguments }) }
}

/**
 * The state the app's instances share, connected once per process and endpoint; `undefined`
 * without `NUXT_MCP_REDIS_URL`, so the Redis client is then never loaded.
 *
 * @example
 * ```ts
 * const shared = useMcpSharedState(useRuntimeConfig().mcp, '/mcp')
 * ```
 */
export function useMcpSharedState(config: McpServerConfig, route: string): Promise<McpSharedState> | undefined {
  if (!config.redisUrl) return undefined
  let shared = sharedByRoute.get(route)
  if (!shared) {
    shared = openRedisState({ url: config.redisUrl, prefix: config.redisPrefix, route }, 'it cannot share state through Redis (2026-07-28 clients need none)')
    sharedByRoute.set(route, shared)
  }
  return shared
}

/** Nuxt's `app.baseURL` (`NUXT_APP_BASE_URL`), under which Nitro serves every handler; `/` when unset. */
export function baseUrlOf(runtime: { app?: { baseURL?: unknown } }): string {
  return typeof runtime.app?.baseURL === 'string' && runtime.app.baseURL ? runtime.app.baseURL : '/'
}

/**
 * The MCP endpoint `event` was routed to, created on first use (so a server that never serves
 * MCP pays nothing) and closed with Nitro.
 *
 * @example
 * ```ts
 * export default defineEventHandler(event => useMcpEndpoint(event).serve(event))
 * ```
 */
export function useMcpEndpoint(event: H3Event): McpEndpoint {
  const route = endpointRouteOf(event)
  return endpoints.get(route) ?? useMcpEndpointAt(route, useRuntimeConfig(event).mcp as McpServerConfig)
}

/**
 * The MCP endpoint at `route` (one of {@link mcpRoutes}), created on first use: its first MCP
 * request, or with `NUXT_MCP_REDIS_URL` the moment its Redis connection is up (the shared-state
 * plugin), so the instance hears the others from then on.
 *
 * @example
 * ```ts
 * useMcpEndpointAt('/mcp/admin', useRuntimeConfig().mcp)
 * ```
 */
export function useMcpEndpointAt(route: string, appConfig: McpServerConfig): McpEndpoint {
  const existing = endpoints.get(route)
  if (existing) return existing
  const nitro = useNitroApp()
  const config = endpointConfigAt(route, appConfig)
  const key = endpointKeys[route] ?? ''
  const toolsOption = key ? `endpoints.${key}.tools` : 'tools'
  const created = createMcpEndpoint({
    definitions: definitionsAt(route),
    config,
    route,
    toolsOption: `mcp.${toolsOption} (${envVariableOf(toolsOption)})`,
    key,
    baseURL: baseUrlOf(useRuntimeConfig()),
    production: !import.meta.dev,
    // Each hook is asked per request whether anyone listens (hooks may be added at run time): an
    // empty `callHook` still costs a `console.createTask` and a promise chain.
    authenticate: mcpHookOf(nitro.hooks, 'mcp:auth'),
    verifyToken: mcpHookOf(nitro.hooks, 'mcp:auth:token'),
    beforeRequest: mcpHookOf(nitro.hooks, 'mcp:request'),
    observe: { call: mcpHookOf(nitro.hooks, 'mcp:call'), ...(callTracer && { trace: callTracer }) },
    serverHook: mcpHookOf(nitro.hooks, 'mcp:server'),
    ...(config.cache.storage && { cacheStorage: useStorage(config.cache.storage) }),
    shared: useMcpSharedState(config, route),
    ...(createTaskRuntime && { tasks: createTaskRuntime }),
    ...(createLegacySessions && { legacy: createLegacySessions }),
    ...(createBearerCheck && { bearerCheck: createBearerCheck }),
  })
  // Questions are watched once for every endpoint (each event carries its endpoint's route).
  if (otel && !stopTracingQuestions) stopTracingQuestions = traceQuestions(otel)
  if (!stopWatchingQuestions) {
    // Answers only when the app opted in (`mcp.observe.answers`; on in `nuxi dev` for the DevTools tab).
    stopWatchingQuestions = watchQuestions(mcpHookOf(nitro.hooks, 'mcp:question'), { answers: appConfig.observe.answers === true })
  }
  nitro.hooks.hook('close', async () => {
    stopWatchingQuestions?.()
    stopWatchingQuestions = undefined
    stopTracingQuestions?.()
    stopTracingQuestions = undefined
    await created.close()
  })
  endpoints.set(route, created)
  return created
}
