import { addServerHandler, addServerImports, addServerPlugin, addServerTemplate, addTypeTemplate, createResolver, defineNuxtModule, useLogger, useNitro } from '@nuxt/kit'
import { existsSync, readFileSync } from 'node:fs'
import { defu } from 'defu'
import { resolve } from 'pathe'
import type { McpServerConfig } from './runtime/server/common/config'
import { renderDefinitionsModule, scanDefinitions } from './scan'
import type { ScannedDefinition } from './scan'
import { definitionWarnings, endpointSummary, printDevBanner, reportRescan, warnAboutDefinitions } from './dev-feedback'
import type { DevReport } from './dev-feedback'
import { setupMcpHost } from './host-setup'
import { watchDefinitionsInDev } from './dev-watch'
import { setupMcpDevtools } from './devtools-setup'
import type { McpHostOptions } from './host-setup'

/** Options of the `mcp:` key in nuxt.config. */
export interface ModuleOptions {
  /** Serve MCP at all. */
  enabled: boolean
  /** Where the endpoint lives. */
  route: string
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
  sessions: Partial<McpServerConfig['sessions']>
  /**
   * In `nuxi dev`, an "MCP" tab in Nuxt DevTools (also at `/__mcp-elicitation/devtools`): the
   * discovered definitions and the latest elicitations with their answers. Never in production.
   *
   * @default true
   * @example
   * ```ts
   * export default defineNuxtConfig({ mcp: { devtools: false } })
   * ```
   */
  devtools: boolean
  elicitation: Partial<McpServerConfig['elicitation']>
  /**
   * Opt-in MCP host support: show the elicitations of MCP servers your app connects to (with the
   * AI SDK) to the person in front of the page. `true` or `{ route, timeoutMs }` registers the
   * respond endpoint `POST <route>/:id`, the server auto-imports `useMcpHostElicitation`,
   * `createMcpHostClient`, `createMemoryElicitationRegistry`, `setMcpElicitationRegistry`, the
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
}

const VIRTUAL_DEFINITIONS = '#mcp-elicitation/definitions'
/** Build-time options the runtime needs (the route). */
const VIRTUAL_OPTIONS = '#mcp-elicitation/options'

/**
 * Presets whose platform serves the app only under hostnames it controls (a rebound DNS name
 * never reaches it), so the Host check has nothing to protect there.
 */
function isPublicPreset(preset: string): boolean {
  return /^(?:cloudflare|vercel|netlify|deno-deploy)/.test(preset.replace(/_/g, '-'))
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The app's package.json `name`, the default server name clients show. */
function readPackageName(rootDir: string): string | undefined {
  const file = resolve(rootDir, 'package.json')
  if (!existsSync(file)) return undefined
  const name: unknown = JSON.parse(readFileSync(file, 'utf8')).name
  return typeof name === 'string' && name ? name : undefined
}

export default defineNuxtModule<ModuleOptions>({
  meta: { name: 'nuxt-mcp-elicitation', configKey: 'mcp', compatibility: { nuxt: '>=4.0.0' } },
  defaults: {
    enabled: true,
    route: '/mcp',
    version: '1.0.0',
    allowedHosts: [],
    allowedOrigins: [],
    maxBodySize: 4 * 1024 * 1024,
    trustedProxies: [],
    sessions: {},
    devtools: true,
    elicitation: {},
    host: false,
  },
  async setup(options, nuxt) {
    const logger = useLogger('nuxt-mcp-elicitation')

    // The host side (opt-in) works even with `enabled: false`: an app can be only an MCP host.
    if (options.host) await setupMcpHost(options.host === true ? {} : options.host, nuxt)


    if (!options.enabled) return
    const resolver = createResolver(import.meta.url)

    const serverConfig: McpServerConfig = {
      name: options.name ?? readPackageName(nuxt.options.rootDir) ?? 'nuxt-mcp',
      version: options.version,
      instructions: options.instructions ?? '',
      publicUrl: options.publicUrl ?? '',
      allowedHosts: options.allowedHosts,
      allowedOrigins: options.allowedOrigins,
      maxBodySize: options.maxBodySize,
      sessions: { idleTimeoutMs: 30 * 60_000, max: 1000, maxPerPrincipal: 100, ...options.sessions },
      trustedProxies: options.trustedProxies,
      legacy: options.legacy ?? true,
      auth: {
        issuers: [], resource: '', audiences: [], scopes: [], clockToleranceSeconds: 60, ...options.auth,
        // No secret option: it comes from NUXT_MCP_AUTH_INTROSPECTION_CLIENT_SECRET at run time,
        // like the state secret, never baked into .output.
        introspection: { clientId: '', endpoint: '', issuer: '', ...options.auth?.introspection, clientSecret: '' },
      },
      elicitation: { timeoutMs: 10 * 60_000, stateTtlSeconds: 3600, maxAttempts: 3, progressIntervalMs: 15_000, allowInsecureUrls: false, ...options.elicitation },
      devtools: options.devtools && nuxt.options.dev,
      // Read at run time from NUXT_MCP_STATE_SECRET: never baked into the build.
      stateSecret: '',
      redisUrl: options.redis ?? '',
      redisPrefix: options.redisPrefix ?? 'nuxt-mcp:',
    }
    if (options.redis && /^[a-z]+:\/\/[^/]*:[^/@]+@/i.test(options.redis)) {
      logger.warn('mcp.redis holds a password: it is baked into .output. Set NUXT_MCP_REDIS_URL in the server\'s environment instead.')
    }
    // The user's own runtimeConfig.mcp (e.g. a stateSecret read from elsewhere) wins over options.
    const existing: unknown = nuxt.options.runtimeConfig.mcp
    if (isRecord(existing) && typeof existing.stateSecret === 'string' && existing.stateSecret) {
      logger.warn('runtimeConfig.mcp.stateSecret is set in nuxt.config: it is baked into .output, where anyone who can read the build can forge requestState. Remove it and set NUXT_MCP_STATE_SECRET in the server\'s environment instead.')
    }
    nuxt.options.runtimeConfig.mcp = defu(isRecord(existing) ? existing : {}, serverConfig)
    // The preset is final only once Nitro starts (it may be detected from the platform).
    nuxt.hook('ready', () => {
      const nitro = useNitro()
      const config = nitro.options.runtimeConfig.mcp
      const preset = nitro.options.preset
      if (!isRecord(config)) return
      if (options.allowedHosts.length === 0 && isPublicPreset(preset)) {
        config.allowedHosts = ['*']
        logger.info(`Preset ${preset}: the platform serves only its own hostnames, so the MCP endpoint's DNS-rebinding check is off (allowedHosts: ['*']).`)
      }
      if (preset.startsWith('cloudflare')) {
        // No TCP sockets on Workers: keep the Redis client (loaded only for NUXT_MCP_REDIS_URL) out of the bundle.
        nitro.options.alias.ioredis = resolver.resolve('./runtime/server/common/shared/no-redis')
      }
      if (options.legacy === undefined && preset.startsWith('cloudflare')) {
        config.legacy = false
        logger.info(`Preset ${preset}: legacy sessions (initialize, ≤ 2025-11-25) are off, as a Worker holds no session; 2026-07-28 clients are served in full. Set mcp.legacy to decide yourself.`)
      }
    })

    const layers = nuxt.options._layers.map(layer => ({
      rootDir: layer.config.rootDir,
      serverDir: layer.config.serverDir ?? resolve(layer.config.rootDir, 'server'),
    }))
    layers[0] = { rootDir: nuxt.options.rootDir, serverDir: nuxt.options.serverDir }

    let found: ScannedDefinition[] = await scanDefinitions(layers)
    warnAboutDefinitions(logger, found, !nuxt.options.dev)
    // `nuxi dev`: the endpoint's URL once it listens, and what the console last said about it.
    let devUrl: string | undefined
    let devReport: DevReport = { summary: '', warnings: new Set(definitionWarnings(found, false)) }
    addServerTemplate({
      filename: VIRTUAL_DEFINITIONS,
      // Re-scanned on every Nitro build, so files added in `nuxi dev` appear after a reload, with
      // their warnings and the endpoint's new counts.
      getContents: async () => {
        found = await scanDefinitions(layers)
        if (devUrl) devReport = reportRescan(logger, devUrl, devReport, found)
        return renderDefinitionsModule(found)
      },
    })
    addTypeTemplate({
      filename: 'types/mcp-elicitation-definitions.d.ts',
      getContents: () => `declare module '${VIRTUAL_DEFINITIONS}' {\n  const definitions: import('${resolver.resolve('./runtime/server/mcp/registry')}').McpDefinitions\n  export default definitions\n}\n`,
    }, { nitro: true })

    const runtimeIndex = resolver.resolve('./runtime/server/index')
    addServerImports(['defineMcpTool', 'defineMcpResource', 'defineMcpPrompt', 'useMcpElicitation', 'McpElicitationError', 'completeMcpUrlElicitation', 'notifyMcpResourceUpdated']
      .map(name => ({ name, from: runtimeIndex })))
    addServerHandler({ route: options.route, handler: resolver.resolve('./runtime/server/routes/mcp') })
    // The Protected Resource Metadata document of the endpoint (RFC 9728); 404 while OAuth is off.
    addServerHandler({ route: `/.well-known/oauth-protected-resource${options.route}`, method: 'get', handler: resolver.resolve('./runtime/server/routes/oauth-metadata') })
    addServerTemplate({ filename: VIRTUAL_OPTIONS, getContents: () => `export const route = ${JSON.stringify(options.route)}\n` })
    addTypeTemplate({ filename: 'types/mcp-elicitation-options.d.ts', getContents: () => `declare module '${VIRTUAL_OPTIONS}' {\n  export const route: string\n}\n` }, { nitro: true })
    addServerPlugin(resolver.resolve('./runtime/server/plugins/check-config'))
    addServerPlugin(resolver.resolve('./runtime/server/plugins/shared-state'))

    // One `server/mcp` folder per layer: files added, edited or removed there rebuild Nitro in dev.
    watchDefinitionsInDev(nuxt, VIRTUAL_DEFINITIONS, layers.map(layer => resolve(layer.serverDir, 'mcp')))

    if (options.devtools) setupMcpDevtools(nuxt)

    if (nuxt.options.dev) {
      nuxt.hook('listen', (_server, listener: { url?: string }) => {
        devUrl = new URL(options.route, listener.url ?? 'http://localhost:3000').href
        printDevBanner(logger, devUrl, serverConfig.name, found)
        devReport = { ...devReport, summary: endpointSummary(devUrl, found) }
      })
    }
  },
})
