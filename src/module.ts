import { addServerHandler, addServerImports, addServerPlugin, addServerTemplate, addTypeTemplate, createResolver, defineNuxtModule, tryResolveModule, useLogger } from '@nuxt/kit'
import { existsSync, readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { defu } from 'defu'
import { resolve } from 'pathe'
import { CACHE_BYTE_DEFAULTS, DEFAULT_RESUMABLE_BYTES, TASK_LIMIT_DEFAULTS } from './runtime/server/common/config'
import type { McpServerConfig } from './runtime/server/common/config'
import { renderDefinitionsModule, scanDefinitions } from './scan'
import { endpointConfig, findEndpointFolders, planEndpoints } from './endpoints'
import type { ScannedDefinition } from './scan'
import { definitionWarnings, endpointSummary, printDevBanner, reportRescan, warnAboutDefinitions } from './dev-feedback'
import type { DevReport } from './dev-feedback'
import { setupMcpHost } from './host-setup'
import { watchDefinitionsInDev } from './dev-watch'
import { setupMcpDevtools } from './devtools-setup'
import type { ModuleOptions } from './module-options'
import { watchEndpointFolders } from './dev-endpoint-folders'
import { setupMcpViews, VIRTUAL_VIEWS } from './apps/setup-views'
import { checkToolApps } from './apps/scan-views'
import { setupPresetWings } from './preset-wings'
import { anyMayDeclareJsonSchema } from './scan-json-schema'
import type { SfcCompiler } from './apps/ast'

export type { ModuleOptions } from './module-options'

const VIRTUAL_DEFINITIONS = '#mcp-elicitation/definitions'
/** Build-time options the runtime needs (the route). */
const VIRTUAL_OPTIONS = '#mcp-elicitation/options'
/** The app's OpenTelemetry API, or `undefined` when it has none (or `mcp.telemetry` is false). */
const VIRTUAL_OTEL = '#mcp-elicitation/otel'

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
    tasks: {},
    host: false,
  },
  async setup(options, nuxt) {
    const logger = useLogger('nuxt-mcp-elicitation')

    // The host side (opt-in) works even with `enabled: false`: an app can be only an MCP host.
    if (options.host) await setupMcpHost(options.host === true ? {} : options.host, nuxt)

    if (!options.enabled) {
      // A host-only app still shares its waiting elicitations through NUXT_MCP_REDIS_URL.
      if (options.host) nuxt.options.runtimeConfig.mcp = defu(nuxt.options.runtimeConfig.mcp ?? {}, { redisUrl: options.redis ?? '', redisPrefix: options.redisPrefix ?? 'nuxt-mcp:' })
      return
    }
    const resolver = createResolver(import.meta.url)

    const serverConfig: McpServerConfig = {
      name: options.name ?? readPackageName(nuxt.options.rootDir) ?? 'nuxt-mcp',
      version: options.version,
      instructions: options.instructions ?? '',
      publicUrl: options.publicUrl ?? '',
      allowedHosts: options.allowedHosts,
      allowedOrigins: options.allowedOrigins,
      maxBodySize: options.maxBodySize,
      sessions: { idleTimeoutMs: 30 * 60_000, max: 1000, maxPerPrincipal: 100, maxResumableBytes: DEFAULT_RESUMABLE_BYTES, ...options.sessions },
      trustedProxies: options.trustedProxies,
      legacy: options.legacy ?? true,
      listChanged: options.listChanged ?? false,
      auth: {
        issuers: [], resource: '', audiences: [], scopes: [], clockToleranceSeconds: 60, jwksMaxAgeSeconds: 3600, ...options.auth,
        // No secret option: it comes from NUXT_MCP_AUTH_INTROSPECTION_CLIENT_SECRET at run time,
        // like the state secret, never baked into .output.
        introspection: { clientId: '', endpoint: '', issuer: '', ...options.auth?.introspection, clientSecret: '' },
      },
      elicitation: { timeoutMs: 10 * 60_000, stateTtlSeconds: 3600, maxAttempts: 3, progressIntervalMs: 15_000, allowInsecureUrls: false, ...options.elicitation },
      tasks: {
        ttlMs: 60 * 60_000,
        maxTtlMs: 24 * 60 * 60_000,
        pollIntervalMs: 1000,
        maxPerPrincipal: 100,
        maxResultBytes: 1024 * 1024,
        ...TASK_LIMIT_DEFAULTS,
        background: true,
        ...options.tasks,
      },
      cache: { storage: '', ...CACHE_BYTE_DEFAULTS, ...options.cache },
      // The DevTools tab shows the answers of `nuxi dev`: the developer's own test data.
      observe: { answers: options.observe?.answers ?? (options.devtools && nuxt.options.dev) },
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

    const layers = nuxt.options._layers.map(layer => ({
      rootDir: layer.config.rootDir,
      serverDir: layer.config.serverDir ?? resolve(layer.config.rootDir, 'server'),
      srcDir: layer.config.srcDir ?? resolve(layer.config.rootDir, 'app'),
    }))
    layers[0] = { rootDir: nuxt.options.rootDir, serverDir: nuxt.options.serverDir, srcDir: nuxt.options.srcDir }
    // MCP App views (app/mcp/*.vue), built into HTML documents; a tool's `app:` must name one.
    const views = setupMcpViews(nuxt, layers, { runtimeEntry: resolver.resolve('./runtime/apps/index'), appsModule: resolver.resolve('./runtime/server/mcp/views/apps'), viewToolsModule: resolver.resolve('./runtime/server/mcp/views/view-tools') })

    // The default endpoint (server/mcp/{tools,resources,prompts} at mcp.route), then one per
    // server/mcp/<key>/ folder or mcp.endpoints key.
    const folders = await findEndpointFolders(layers.map(layer => layer.serverDir))
    const plans = planEndpoints(options.route, folders, options.endpoints ?? {})
    const extra = plans.filter(plan => plan.key)
    if (extra.length > 0) {
      const mcp = nuxt.options.runtimeConfig.mcp as McpServerConfig
      mcp.endpoints = Object.fromEntries(extra.map(plan => [plan.key, defu(mcp.endpoints?.[plan.key] ?? {}, endpointConfig(plan, options.endpoints?.[plan.key] ?? {}, serverConfig))]))
    }
    const scanAll = async () => new Map(await Promise.all(plans.map(async plan => [plan.key, await scanDefinitions(layers, plan.key)] as const)))
    // `nuxi dev`: a new or removed endpoint folder restarts Nuxt in place, so its route is served or gone.
    const checkEndpointFolders = watchEndpointFolders(nuxt, logger, options, layers.map(layer => layer.serverDir), folders)
    let scanned = await scanAll()
    for (const plan of extra) {
      if (scanned.get(plan.key)?.length === 0) logger.warn(`mcp.endpoints.${plan.key} has no definitions: add them under server/mcp/${plan.key}/tools (or resources, prompts); until then ${plan.route} serves empty lists.`)
    }
    const found: ScannedDefinition[] = [...scanned.values()].flat()
    checkToolApps(found, await views.views())
    warnAboutDefinitions(logger, found, !nuxt.options.dev)
    // `nuxi dev`: the endpoint's URL once it listens, and what the console last said about it.
    let devUrl: string | undefined
    let devReport: DevReport = { summary: '', warnings: new Set(definitionWarnings(found, false)) }
    addServerTemplate({
      filename: VIRTUAL_DEFINITIONS,
      // Re-scanned on every Nitro build, so files added in `nuxi dev` appear after a reload, with
      // their warnings and the endpoint's new counts.
      getContents: async () => {
        scanned = await scanAll()
        checkToolApps([...scanned.values()].flat(), await views.views())
        if (devUrl) devReport = reportRescan(logger, devUrl, devReport, scanned.get('') ?? [])
        if (nuxt.options.dev) await checkEndpointFolders()
        return renderDefinitionsModule(scanned)
      },
    })
    // What the preset leaves out of the bundle (a Worker: much), decided once Nitro knows it.
    setupPresetWings(nuxt, options, logger, {
      tasks: resolver.resolve('./runtime/server/tasks/calls/runtime'),
      legacy: resolver.resolve('./runtime/server/transport/sessions/create-legacy-sessions'),
      redis: resolver.resolve('./runtime/server/cluster/load-redis-state'),
      bearer: resolver.resolve('./runtime/server/transport/oauth/bearer'),
      jsonSchema: resolver.resolve('./runtime/server/mcp/definitions/json-schema-arguments'),
      sdkShims: resolver.resolve('./runtime/server/common/sdk-shims'),
      mayDeclareJsonSchema: async () => {
        const sfcPath = await tryResolveModule('vue/compiler-sfc', nuxt.options.modulesDir)
        if (!sfcPath) return true
        const sfc: SfcCompiler = await import(pathToFileURL(sfcPath).href)
        // The definitions as last scanned (the definitions template scans again on every build).
        const tools = [...scanned.values()].flat().filter(entry => entry.kind === 'tools').map(entry => entry.path)
        return anyMayDeclareJsonSchema(sfc, tools, (await views.views()).map(view => view.path))
      },
    })
    addTypeTemplate({
      filename: 'types/mcp-elicitation-definitions.d.ts',
      getContents: () => `declare module '${VIRTUAL_DEFINITIONS}' {\n  const definitions: Record<string, import('${resolver.resolve('./runtime/server/mcp/definitions/registry')}').McpDefinitions>\n  export default definitions\n}\n`,
    }, { nitro: true })

    const runtimeIndex = resolver.resolve('./runtime/server/index')
    addServerImports(['defineMcpTool', 'defineMcpResource', 'defineMcpPrompt', 'useMcpElicitation', 'McpElicitationError', 'completeMcpUrlElicitation', 'notifyMcpResourceUpdated', 'notifyMcpListChanged', 'useMcpSession', 'useMcpLogger', 'useMcpTask']
      .map(name => ({ name, from: runtimeIndex })))
    for (const plan of plans) {
      addServerHandler({ route: plan.route, handler: resolver.resolve('./runtime/server/routes/mcp') })
      // The Protected Resource Metadata document of the endpoint (RFC 9728); 404 while OAuth is off there.
      addServerHandler({ route: `/.well-known/oauth-protected-resource${plan.route}`, method: 'get', handler: resolver.resolve('./runtime/server/routes/oauth-metadata') })
    }
    // Each endpoint's key by route: the one route handler finds its endpoint by the route it matched.
    const keys = Object.fromEntries(plans.map(plan => [plan.route, plan.key]))
    addServerTemplate({ filename: VIRTUAL_OPTIONS, getContents: () => `export const route = ${JSON.stringify(options.route)}\nexport const endpointKeys = ${JSON.stringify(keys)}\n` })
    addTypeTemplate({ filename: 'types/mcp-elicitation-options.d.ts', getContents: () => `declare module '${VIRTUAL_OPTIONS}' {\n  export const route: string\n  export const endpointKeys: Record<string, string>\n}\n` }, { nitro: true })
    // OpenTelemetry only when the app has its API: otherwise nothing of it is imported or bundled.
    const otelApi = options.telemetry === false ? undefined : await tryResolveModule('@opentelemetry/api', nuxt.options.modulesDir)
    if (options.telemetry === true && !otelApi) logger.warn('mcp.telemetry is true but @opentelemetry/api is not installed: no spans are made. Install it (npm i @opentelemetry/api) and register a tracer provider.')
    addServerTemplate({
      filename: VIRTUAL_OTEL,
      getContents: () => otelApi
        ? `import { trace, context, propagation, SpanKind, SpanStatusCode } from '@opentelemetry/api'\nexport const otel = { trace, context, propagation, SpanKind, SpanStatusCode }\n`
        : 'export const otel = undefined\n',
    })
    addTypeTemplate({ filename: 'types/mcp-elicitation-otel.d.ts', getContents: () => `declare module '${VIRTUAL_OTEL}' {\n  export const otel: import('${resolver.resolve('./runtime/server/mcp/observing/tracing')}').McpOtelApi | undefined\n}\n` }, { nitro: true })
    addServerPlugin(resolver.resolve('./runtime/server/plugins/check-config'))
    addServerPlugin(resolver.resolve('./runtime/server/plugins/shared-state'))

    // One `server/mcp` folder per layer: files added, edited or removed there rebuild Nitro in dev.
    watchDefinitionsInDev(nuxt, VIRTUAL_DEFINITIONS, layers.map(layer => resolve(layer.serverDir, 'mcp')))
    // A view rebuilds when a file in app/mcp/ or any source it imports changes.
    watchDefinitionsInDev(nuxt, VIRTUAL_VIEWS, () => [...views.dirs, ...views.files()])

    if (options.devtools) setupMcpDevtools(nuxt)

    if (nuxt.options.dev) {
      nuxt.hook('listen', (_server, listener: { url?: string }) => {
        devUrl = new URL(options.route, listener.url ?? 'http://localhost:3000').href
        const defaultFound = scanned.get('') ?? []
        printDevBanner(logger, devUrl, serverConfig.name, defaultFound)
        // Every endpoint gets its own client configs, under the server name its clients will show.
        for (const plan of extra) printDevBanner(logger, new URL(plan.route, devUrl).href, options.endpoints?.[plan.key]?.name ?? `${serverConfig.name}-${plan.key}`, scanned.get(plan.key) ?? [])
        devReport = { ...devReport, summary: endpointSummary(devUrl, defaultFound) }
      })
    }
  },
})
