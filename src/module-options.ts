import type { McpServerConfig } from './runtime/server/common/config'
import type { McpHostOptions } from './build/host'
import type { McpEndpointModuleOptions } from './build/endpoints'

/** Options of the `mcp:` key in nuxt.config. */
export interface ModuleOptions {
  /** Serve MCP at all. */
  enabled: boolean
  /** Where the endpoint lives. */
  route: string
  /**
   * More endpoints, each with its own definitions in `server/mcp/<key>/{tools,resources,prompts}`,
   * served at `<route>/<key>` (a folder alone is enough: an entry here only changes its settings).
   * Each has its own name, instructions, OAuth settings and sessions; hooks and guards tell them
   * apart by `route`. See docs/definitions.md ("Several endpoints").
   *
   * @example
   * ```ts
   * export default defineNuxtConfig({ mcp: { endpoints: { admin: { instructions: 'Tools for the support team.', auth: { scopes: ['admin'] } } } } })
   * ```
   */
  endpoints?: Record<string, McpEndpointModuleOptions>
  /** The server name clients show. Defaults to the app's package name. */
  name?: string
  version: string
  /** Instructions sent to clients at initialize / discover. */
  instructions?: string
  /**
   * The address clients use to reach the endpoint's server, e.g. `https://mcp.example.com`
   * (also `NUXT_MCP_PUBLIC_URL` at run time). Its host passes the DNS-rebinding check, which
   * refuses every other DNS name: set it wherever the server is reached by a name other than
   * `localhost` or an IP address.
   *
   * @example
   * ```ts
   * export default defineNuxtConfig({ mcp: { publicUrl: 'https://mcp.example.com' } })
   * ```
   */
  publicUrl?: string
  /**
   * Host names (or `host:port`) accepted besides loopback names, IP literals and the public
   * URL's host; `['*']` turns the DNS-rebinding check off. Defaults to `['*']` on presets that
   * serve only behind their platform's own hostnames (cloudflare-*, vercel*, netlify*,
   * deno-deploy), `[]` elsewhere.
   */
  allowedHosts: string[]
  /** Browser origins accepted besides the endpoint's own. */
  allowedOrigins: string[]
  /**
   * Serve legacy sessions (protocol ≤ 2025-11-25, `initialize`) besides stateless 2026-07-28
   * requests. They need one long-lived process holding the session: by default on for every
   * preset except Cloudflare's (`cloudflare-*`), where `initialize` gets a JSON-RPC error naming
   * 2026-07-28. Also `NUXT_MCP_LEGACY`.
   *
   * @example
   * ```ts
   * export default defineNuxtConfig({ mcp: { legacy: false } }) // a modern-only server
   * ```
   */
  legacy?: boolean
  /**
   * Advertise `listChanged` for tools, prompts and resources, so that `notifyMcpListChanged()`
   * reaches clients (legacy sessions' GET streams, 2026-07-28 `subscriptions/listen`). On by
   * itself when a definition has a guard (`scopes`, `enabled`), whose answer may change.
   *
   * @example
   * ```ts
   * export default defineNuxtConfig({ mcp: { listChanged: true } }) // tools behind a feature flag
   * ```
   */
  listChanged?: boolean
  /**
   * Serve only some of the endpoint's tools: entries in the `X-MCP-Tools` syntax (a tool's name,
   * `group:<name>`, `tag:<name>`), or one comma-separated string (`NUXT_MCP_TOOLS` at run time).
   * A client's `X-MCP-Tools` header narrows further within it. A view, not a guard: use `scopes`
   * or `enabled` to keep a tool from a caller. See docs/clients.md.
   * @default '*' (every tool)
   *
   * @example
   * ```ts
   * export default defineNuxtConfig({ mcp: { tools: ['group:docs', 'search'] } })
   * ```
   */
  tools?: string[] | string
  /**
   * Make the endpoint an OAuth resource server (MCP authorization): requests need an access token
   * from one of `issuers`, verified against the issuer's keys (JWT: signature, issuer, audience,
   * expiry, scopes). Off while `issuers` is empty. Each key has a `NUXT_MCP_AUTH_*` variable.
   * See docs/authorization.md.
   *
   * @example
   * ```ts
   * export default defineNuxtConfig({ mcp: { publicUrl: 'https://mcp.example.com', auth: { issuers: ['https://auth.example.com'], scopes: ['mcp'] } } })
   * ```
   */
  auth?: Partial<Omit<McpServerConfig['auth'], 'introspection'>> & { introspection?: Partial<Omit<McpServerConfig['auth']['introspection'], 'clientSecret'>> }
  /**
   * Redis shared by several instances of the app behind a load balancer: legacy sessions, the
   * answers that reach another instance, URL completions and the replay guard go there, so any
   * instance serves any request. Prefer `NUXT_MCP_REDIS_URL` at run time (a URL with a password
   * set here is baked into `.output`). Needs the `ioredis` package. Empty (the default): all
   * state stays in the process. See docs/deploy/several-instances.md.
   *
   * @example
   * ```ts
   * export default defineNuxtConfig({ mcp: { redis: 'redis://redis.internal:6379' } })
   * ```
   */
  redis?: string
  /**
   * Put before every Redis key and channel, then the endpoint's route (`NUXT_MCP_REDIS_PREFIX`).
   *
   * @default 'nuxt-mcp:'
   */
  redisPrefix?: string
  /** Largest request body in bytes. */
  maxBodySize: number
  /**
   * Proxies in front of the server whose `X-Forwarded-For` is believed when telling anonymous
   * clients apart (the per-principal session cap): addresses or IPv4 CIDR ranges. Also
   * `NUXT_MCP_TRUSTED_PROXIES` (comma-separated). Empty: the peer's own address counts.
   *
   * @example
   * ```ts
   * export default defineNuxtConfig({ mcp: { trustedProxies: ['127.0.0.1', '10.0.0.0/8'] } })
   * ```
   */
  trustedProxies: string[]
  /**
   * Legacy sessions' limits: idle timeout, caps on their number, and what their resumable streams
   * may keep in this process. See docs/configuration.md.
   *
   * @example
   * ```ts
   * export default defineNuxtConfig({ mcp: { sessions: { max: 200, maxResumableBytes: 16 * 1024 * 1024 } } })
   * ```
   */
  sessions: Partial<McpServerConfig['sessions']>
  /**
   * In `nuxi dev`, an "MCP" tab in Nuxt DevTools (also at `/__mcp-elicitation/devtools`): every
   * endpoint with its URL, Inspector command and link, definitions and tasks, and the latest calls and
   * questions with their answers (it turns `observe.answers` on in `nuxi dev`). Never in production.
   *
   * @default true
   * @example
   * ```ts
   * export default defineNuxtConfig({ mcp: { devtools: false } })
   * ```
   */
  devtools: boolean
  /**
   * What the `mcp:call` and `mcp:question` hooks carry (docs/observability.md). `answers`: put
   * what the person answered in `mcp:question` events (`content`, and `issues` and a URL-mode
   * `url`, which may quote or carry it). Default: off, except in `nuxi dev` with `devtools` on,
   * where the MCP tab shows the developer's own test answers. Also `NUXT_MCP_OBSERVE_ANSWERS`.
   * Turn it on in production only for a listener that may keep what people typed.
   *
   * @default { answers: false } (`true` in `nuxi dev` with `devtools`)
   * @example
   * ```ts
   * export default defineNuxtConfig({ mcp: { observe: { answers: false } } })
   * ```
   */
  observe?: Partial<McpServerConfig['observe']>
  /**
   * Where tools and resources with a `cache` keep results: `storage` names a Nitro storage mount
   * you configure in `nitro.storage` (Redis, a Cloudflare KV binding, the file system…), so
   * instances and Workers isolates share them. Unset: Redis with `NUXT_MCP_REDIS_URL`, else this
   * process. Also `NUXT_MCP_CACHE_STORAGE`. And how much: no entry over
   * `maxEntryBytes`; in this process or Redis at most `maxBytes` an endpoint, `maxBytesPerCaller`
   * of it a caller (`NUXT_MCP_CACHE_MAX_ENTRY_BYTES`, `…_MAX_BYTES`, `…_MAX_BYTES_PER_CALLER`).
   *
   * @default { storage: '', maxEntryBytes: 1048576, maxBytes: 67108864, maxBytesPerCaller: 8388608 }
   * @example
   * ```ts
   * export default defineNuxtConfig({
   *   nitro: { storage: { 'mcp-cache': { driver: 'cloudflare-kv-binding', binding: 'MCP_CACHE' } } },
   *   mcp: { cache: { storage: 'mcp-cache' } },
   * })
   * ```
   */
  cache?: Partial<McpServerConfig['cache']>
  elicitation: Partial<Omit<McpServerConfig['elicitation'], 'page'>> & { page?: Partial<McpServerConfig['elicitation']['page']> }
  /**
   * Tasks (`execution: { taskSupport }` on a tool): how long they are kept, how often clients
   * poll, and their bounds: running tasks per caller (anonymous callers counted by client
   * address), running tasks in all (ended ones never refuse one), the ttl an anonymous caller gets, and the bytes a task keeps of
   * its arguments, the client's capabilities, each answer and its result. `background` is off on
   * Cloudflare presets. Each option in docs/configuration.md.
   *
   * @example
   * ```ts
   * export default defineNuxtConfig({ mcp: { tasks: { ttlMs: 4 * 60 * 60_000, maxPerPrincipal: 20 } } })
   * ```
   */
  tasks: Partial<McpServerConfig['tasks']>
  /**
   * Opt-in MCP host support: show the elicitations of MCP servers your app connects to (with the
   * AI SDK) to the person in front of the page. `true` or `{ route, timeoutMs }` registers the
   * respond endpoint `POST <route>/:id`, the server auto-imports `useMcpHostElicitation`,
   * `createMcpHostClient`, `createMcpMemoryElicitationRegistry`, `setMcpElicitationRegistry`, the
   * component `<McpElicitationForm>` and the composable `useMcpChatElicitations`. Needs the
   * optional peer dependencies `ai` and `@ai-sdk/mcp` (and `@ai-sdk/vue` for `useChat` pages).
   * Works with `enabled: false` (an app that is only a host). See docs/host.md.
   *
   * @default false
   * @example
   * ```ts
   * export default defineNuxtConfig({ mcp: { host: { timeoutMs: 120_000 } } })
   * ```
   */
  host: boolean | McpHostOptions
  /**
   * OpenTelemetry spans for MCP requests and the questions they ask (docs/observability.md).
   * Unset: on when the app has `@opentelemetry/api` installed (an optional peer dependency),
   * and nothing of it in the build otherwise. `false`: off even then. `true`: on, and a build
   * warning when the package is missing. Spans go to whatever tracer provider the app registers.
   *
   * @example
   * ```ts
   * export default defineNuxtConfig({ mcp: { telemetry: false } })
   * ```
   */
  telemetry?: boolean
}
