import type { H3Event } from 'h3'
import type { McpServerConfig } from '../../common/config'
import type { McpStateStore } from '../../common/store/store'
import type { McpSharedState } from '../../cluster/shared-state'
import type { McpDefinitions, McpRegistry } from '../../mcp/definitions/registry'
import type { McpObservers } from '../../mcp/observing/observe-calls'
import type { McpServerEvent } from '../../mcp/observing/server-hook'
import type { McpHook } from '../../common/hooks'
import type { McpCacheStorage } from '../../mcp/caching/store'
import type { McpTaskRuntime, TaskRuntimeOptions } from '../../tasks/calls/runtime'
import type { TaskLimits } from '../../tasks/store/table'
import type { LegacySessions } from '../sessions/legacy-sessions'
import type { createLegacySessions } from '../sessions/create-legacy-sessions'
import type { createBearerCheck } from '../oauth/bearer'
import type { McpAuthContext, McpTokenContext } from './auth'
import type { McpRequestContext } from './middleware'

// What an endpoint is made from and what it offers: the types of `createMcpEndpoint` (endpoint.ts).

export interface McpEndpointOptions {
  definitions: McpDefinitions
  config: McpServerConfig
  /** Where the endpoint is served (`mcp.route`): part of the OAuth resource identifier. */
  route?: string
  /** The option `config.tools` came from, as messages name it. @default 'mcp.tools' */
  toolsOption?: string
  /** Nuxt's `app.baseURL`, which Nitro serves every handler under: part of it too. */
  baseURL?: string
  /** The endpoint's key (`server/mcp/<key>/`), empty for the default one: the app's page finds the endpoint by it. */
  key?: string
  production: boolean
  /** The app's `mcp:auth` hooks. */
  authenticate?: McpHook<McpAuthContext, Promise<void>>
  /** The app's `mcp:request` hooks (middleware), run once the caller is known. */
  beforeRequest?: McpHook<McpRequestContext, Promise<void>>
  /** The app's `mcp:auth:token` hooks (opaque access tokens, while `mcp.auth` is on). */
  verifyToken?: McpHook<McpTokenContext, Promise<void>>
  /** Who hears about finished calls (the app's `mcp:call` hooks). */
  observe?: McpObservers
  /** The app's `mcp:server` hooks: handlers of their own on each server built. */
  serverHook?: McpHook<McpServerEvent>
  /** The Nitro storage mount `mcp.cache.storage` names: where tools and resources keep cached results. */
  cacheStorage?: McpCacheStorage
  /**
   * Makes the endpoint's legacy sessions; absent where the build left them out (`mcp.legacy: false`
   * when it was built, a Worker's default), and then legacy clients are refused.
   */
  legacy?: typeof createLegacySessions
  /**
   * Makes the OAuth token check; absent where the build left it out (a Worker built while
   * `mcp.auth` named no issuer), and then an endpoint with issuers refuses every request.
   */
  bearerCheck?: typeof createBearerCheck
  /** Makes the endpoint's task runtime; absent where tasks cannot run (the build leaves them out on Workers). */
  tasks?: (limits: TaskLimits, options: TaskRuntimeOptions) => McpTaskRuntime
  /** Where modern `once()` steps are guarded against replays (default: in this process, or `shared`). */
  store?: McpStateStore
  /**
   * The state every instance shares (`NUXT_MCP_REDIS_URL`): legacy sessions, the answers that
   * cross instances, and the replay guard. Without it, everything stays in this process.
   */
  shared?: Promise<McpSharedState>
}

/** One MCP endpoint serving both protocol eras. */
export interface McpEndpoint {
  /**
   * Answers one HTTP request. On Node it writes to the Node response and resolves with nothing;
   * where Nitro hands h3 a stand-in response (Workers, Bun, Deno) it resolves with the web
   * `Response` for h3 to send, which streams.
   */
  serve: (event: H3Event) => Promise<Response | undefined>
  registry: McpRegistry
  /** Absent when legacy sessions are off (`mcp.legacy: false`, the default on Workers). */
  sessions: LegacySessions | undefined
  /** The endpoint's tasks; absent without a task-capable tool, or where tasks cannot run. */
  tasks: McpTaskRuntime | undefined
  /** What the app's page needs to show and take this endpoint's questions. */
  page: McpEndpointPage
  close: () => Promise<void>
}

/**
 * The part of an endpoint the question page stands on: where its questions wait, the endpoint's
 * settings, and who the person on the page is (the app's `mcp:auth` hooks, without a bearer token:
 * a browser following a link carries none).
 */
export interface McpEndpointPage {
  store: McpStateStore
  config: McpServerConfig
  secret: string
  route: string
  /** The principal the app's `mcp:auth` hooks name for this browser request, or `undefined`. */
  identify: (event: H3Event) => Promise<string | undefined>
}
