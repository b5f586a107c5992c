import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { resolve } from 'pathe'
import type { McpEndpointConfig, McpServerConfig } from '../runtime/server/common/config'

/** The three kinds of definition folders: a folder holding one of them is an endpoint's. */
const KIND_FOLDERS = ['tools', 'resources', 'prompts']
/** An endpoint's key: its folder under `server/mcp/` and the last segment of its default route. */
const ENDPOINT_KEY = /^[a-z0-9][a-z0-9-]*$/

/**
 * Options of one more endpoint (`mcp.endpoints.<key>`), whose definitions live in
 * `server/mcp/<key>/{tools,resources,prompts}`. Everything not set here is the app's
 * (`allowedHosts`, `maxBodySize`, `elicitation`, `redis`, the state secret…).
 */
export interface McpEndpointModuleOptions {
  /** Where it is served. @default `${mcp.route}/<key>`, e.g. `/mcp/admin` */
  route?: string
  /** The server name clients show. @default `${mcp.name}-<key>` */
  name?: string
  /** @default mcp.version */
  version?: string
  /** Sent to clients at initialize / discover. @default '' (the default endpoint's are not inherited: they describe other tools) */
  instructions?: string
  /** Advertise `listChanged` (also on by itself when one of its definitions has a guard). @default mcp.listChanged */
  listChanged?: boolean
  /** Serve only some of its tools, in `X-MCP-Tools` syntax (as `mcp.tools`, which it does not inherit). @default '*' */
  tools?: string[] | string
  /**
   * OAuth settings laid over `mcp.auth` key by key: `{ scopes: ['admin'] }` asks more of the same
   * issuers, `{ issuers: [] }` turns OAuth off here. Its resource identifier defaults to the public
   * URL plus this endpoint's route.
   */
  auth?: Partial<Omit<McpServerConfig['auth'], 'introspection'>>
}

/** One endpoint the build serves. */
export interface EndpointPlan {
  /** `''` for the default endpoint (`server/mcp/tools…` at `mcp.route`), else its folder name. */
  key: string
  route: string
}

/**
 * The folders of `server/mcp/` (in any layer) that hold a `tools`, `resources` or `prompts`
 * folder: each is one more endpoint. Other folders (shared helpers) are left alone.
 *
 * @example
 * ```ts
 * await findEndpointFolders(['/app/server']) // ['admin'] with /app/server/mcp/admin/tools/x.ts
 * ```
 */
export async function findEndpointFolders(serverDirs: string[]): Promise<string[]> {
  const found = new Set<string>()
  for (const serverDir of serverDirs) {
    const root = resolve(serverDir, 'mcp')
    if (!existsSync(root)) continue
    for (const entry of await readdir(root, { withFileTypes: true })) {
      // server/mcp/skills/ holds the default endpoint's skills, never an endpoint (a skill may be named "tools").
      if (!entry.isDirectory() || KIND_FOLDERS.includes(entry.name) || entry.name === 'skills') continue
      if (KIND_FOLDERS.some(kind => existsSync(resolve(root, entry.name, kind)))) found.add(entry.name)
    }
  }
  return [...found].sort()
}

/**
 * The endpoints to serve: the default one at `route`, then one per folder or `mcp.endpoints`
 * key. Throws, naming the key or route and the fix, on a key that cannot be a URL segment or two
 * endpoints on one route.
 *
 * @example
 * ```ts
 * planEndpoints('/mcp', ['admin'], {}) // [{ key: '', route: '/mcp' }, { key: 'admin', route: '/mcp/admin' }]
 * ```
 */
export function planEndpoints(route: string, folders: string[], declared: Record<string, McpEndpointModuleOptions>): EndpointPlan[] {
  const plans: EndpointPlan[] = [{ key: '', route }]
  for (const key of [...new Set([...folders, ...Object.keys(declared)])]) {
    if (!ENDPOINT_KEY.test(key)) {
      throw new Error(`[nuxt-mcp-elicitation] The endpoint "${key}" (server/mcp/${key}/ or mcp.endpoints.${key}) is not a usable name: use lower-case letters, digits and dashes, e.g. "admin".`)
    }
    const own = declared[key]?.route ?? `${route.replace(/\/+$/, '')}/${key}`
    const clash = plans.find(plan => plan.route === own)
    if (clash) {
      throw new Error(`[nuxt-mcp-elicitation] Two endpoints are served at ${own}: "${clash.key || 'default'}" and "${key}". Give one another route (mcp.endpoints.${key}.route).`)
    }
    plans.push({ key, route: own })
  }
  return plans
}

/**
 * The run-time settings of one more endpoint (`runtimeConfig.mcp.endpoints.<key>`, so each has a
 * `NUXT_MCP_ENDPOINTS_<KEY>_*` variable), from its options and the app's.
 *
 * @example
 * ```ts
 * endpointConfig({ key: 'admin', route: '/mcp/admin' }, {}, serverConfig)
 * ```
 */
export function endpointConfig(plan: EndpointPlan, options: McpEndpointModuleOptions, app: McpServerConfig): McpEndpointConfig {
  return {
    route: plan.route,
    name: options.name ?? `${app.name}-${plan.key}`,
    version: options.version ?? app.version,
    instructions: options.instructions ?? '',
    listChanged: options.listChanged ?? app.listChanged,
    tools: options.tools ?? '*',
    auth: { ...options.auth },
  }
}
