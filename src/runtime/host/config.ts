import type { H3Event } from 'h3'
import { useRuntimeConfig } from 'nitropack/runtime'
import type { McpHostPageConfig } from '../chat/elicitation/host-urls'
import { isRecord } from '../server/common/is-record'

/** The host options as they reach the server (`mcp.host` in nuxt.config, `NUXT_MCP_HOST_*`). */
export interface McpHostConfig {
  /** Prefix of the respond endpoint: answers are POSTed to `<route>/<id>`. */
  route: string
  /** `route` under the app's `baseURL`: the path the browser posts to. */
  publicRoute: string
  /** How long a pending elicitation waits for the person before the host answers `cancel`. */
  timeoutMs: number
  /** Prefix of the MCP Apps call endpoint (`<appsRoute>/:id/call`), under the app's `baseURL`. */
  appsRoute: string
  /** The MCP App sandbox's origin or host name (`NUXT_MCP_HOST_APPS_SANDBOX_ORIGIN`); empty: none. */
  appsSandboxOrigin: string
}

/** Defaults of {@link McpHostConfig}: `/api/_mcp/elicitations`, 5 minutes. */
export const MCP_HOST_DEFAULTS: Pick<McpHostConfig, 'route' | 'timeoutMs'> = { route: '/api/_mcp/elicitations', timeoutMs: 5 * 60_000 }

/**
 * The host config of this request: `runtimeConfig.mcpHost` (the module writes it; env variables
 * such as `NUXT_MCP_HOST_TIMEOUT_MS=60000` override it), with defaults for anything missing.
 *
 * @example
 * ```ts
 * const { timeoutMs } = useMcpHostConfig(event)
 * ```
 */
export function useMcpHostConfig(event?: H3Event): McpHostConfig {
  const runtime = useRuntimeConfig(event)
  const raw: unknown = runtime.mcpHost
  const config = isRecord(raw) ? raw : {}
  const timeoutMs = Number(config.timeoutMs)
  const route = typeof config.route === 'string' && config.route ? config.route.replace(/\/+$/, '') : MCP_HOST_DEFAULTS.route
  const base = typeof runtime.app?.baseURL === 'string' ? runtime.app.baseURL.replace(/\/+$/, '') : ''
  return {
    route,
    publicRoute: `${base}${route}`,
    timeoutMs: Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : MCP_HOST_DEFAULTS.timeoutMs,
    appsRoute: `${base}/api/_mcp/apps`,
    appsSandboxOrigin: typeof config.appsSandboxOrigin === 'string' ? config.appsSandboxOrigin : '',
  }
}

/**
 * What the chat page needs to know of its host ({@link McpHostPageConfig}): the sandbox origin and
 * the two routes whose URLs message data may name. Nothing secret: it goes into every page.
 *
 * @example
 * ```ts
 * useRuntimeConfig(event).public.mcpHost = pageConfigOf(useMcpHostConfig(event))
 * ```
 */
export function pageConfigOf(config: McpHostConfig): McpHostPageConfig {
  return { appsSandboxOrigin: config.appsSandboxOrigin, respondRoute: config.publicRoute, appsRoute: config.appsRoute }
}

/**
 * `mcp.allowedOrigins` (a list, or a comma-separated string from NUXT_MCP_ALLOWED_ORIGINS): the
 * origins besides its own from which the host's endpoints accept requests.
 *
 * @example
 * ```ts
 * checkMcpCsrf({ …, allowedOrigins: allowedOrigins() })
 * ```
 */
export function allowedOrigins(): string[] {
  const mcp: unknown = useRuntimeConfig().mcp
  const raw: unknown = typeof mcp === 'object' && mcp !== null && 'allowedOrigins' in mcp ? mcp.allowedOrigins : undefined
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : []
  return list.filter((item): item is string => typeof item === 'string').map(item => item.trim()).filter(Boolean)
}
