import { addServerHandler, addServerImports, addServerPlugin, createResolver, defineNuxtModule, tryResolveModule, useLogger } from '@nuxt/kit'
import { existsSync, readFileSync } from 'node:fs'
import { defu } from 'defu'
import { resolve } from 'pathe'
import { CACHE_BYTE_DEFAULTS, DEFAULT_RESUMABLE_BYTES, TASK_LIMIT_DEFAULTS } from './runtime/server/common/config'
import type { McpServerConfig } from './runtime/server/common/config'
import { renderDefinitionsModule, scanDefinitions } from './build/definitions/scan'
import { endpointConfig, findEndpointFolders, planEndpoints } from './build/endpoints'
import type { ScannedDefinition } from './build/definitions/scan'
import { definitionWarnings, endpointSummary, printDevBanner, reportRescan, warnAboutDefinitions } from './build/dev/feedback'
import type { DevReport } from './build/dev/feedback'
import { setupMcpHost } from './build/host'
import { watchDefinitionsInDev, watchEndpointFolders } from './build/dev/watch'
import { setupMcpDevtools } from './build/dev/devtools'
import type { ModuleOptions } from './module-options'
import { setupMcpViews } from './build/views/setup-views'
import { checkToolViews } from './build/views/scan-views'
import { setupPresetWings } from './build/preset-wings'
import { renderSkillsModule, scanSkills } from './build/skills/scan'
import { anyMayDeclareJsonSchema } from './build/definitions/read'
import type { SfcCompiler } from './build/ast'
import { importFromApp, isRecord } from './build/common'
import { addVirtualModule, addWing, standInFor, virtualId } from './build/virtual-modules'
import type { RuntimePath } from './build/virtual-modules'

export type { ModuleOptions } from './module-options'

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
    // Every runtime path is resolved from here, the entry the package build bundles the build files into.
    const resolver = createResolver(import.meta.url)
    const runtime: RuntimePath = file => resolver.resolve(`./runtime/${file}`)

    // The host side (opt-in) works even with `enabled: false`: an app can be only an MCP host.
    if (options.host) await setupMcpHost(options.host === true ? {} : options.host, nuxt, runtime)

    if (!options.enabled) {
      // A host-only app still shares its waiting elicitations through NUXT_MCP_REDIS_URL.
      if (options.host) nuxt.options.runtimeConfig.mcp = defu(nuxt.options.runtimeConfig.mcp ?? {}, { redisUrl: options.redis ?? '', redisPrefix: options.redisPrefix ?? 'nuxt-mcp:' })
      return
    }

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
      tools: options.tools ?? '*',
      auth: {
        issuers: [], resource: '', audiences: [], scopes: [], clockToleranceSeconds: 60, jwksMaxAgeSeconds: 3600, ...options.auth,
        // No secret option: it comes from NUXT_MCP_AUTH_INTROSPECTION_CLIENT_SECRET at run time,
        // like the state secret, never baked into .output.
        introspection: { clientId: '', endpoint: '', issuer: '', ...options.auth?.introspection, clientSecret: '' },
      },
      elicitation: {
        timeoutMs: 10 * 60_000,
        stateTtlSeconds: 3600,
        maxAttempts: 3,
        progressIntervalMs: 15_000,
        allowInsecureUrls: false,
        ...options.elicitation,
        page: { enabled: true, maxOpenPerCaller: 5, consentWithLinkOnly: false, ...options.elicitation?.page },
      },
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
    // MCP App views (app/mcp/*.vue), built into HTML documents; a tool's `view:` must name one.
    const views = setupMcpViews(nuxt, layers, logger, { runtime, runtimeEntry: runtime('view/index'), appsModule: runtime('server/mcp/views/apps'), viewToolsModule: runtime('server/mcp/views/view-tools') })

    // The default endpoint (server/mcp/{tools,resources,prompts} at mcp.route), then one per
    // server/mcp/<key>/ folder or mcp.endpoints key.
    const folders = await findEndpointFolders(layers.map(layer => layer.serverDir))
    const plans = planEndpoints(options.route, folders, options.endpoints ?? {})
    const extra = plans.filter(plan => plan.key)
    if (extra.length > 0) {
      const mcp = nuxt.options.runtimeConfig.mcp as McpServerConfig
      mcp.endpoints = Object.fromEntries(extra.map(plan => [plan.key, defu(mcp.endpoints?.[plan.key] ?? {}, endpointConfig(plan, options.endpoints?.[plan.key] ?? {}, serverConfig))]))
    }
    // One Babel parse of each definition file, with the parser of the Vue the app builds with.
    const sfc = await importFromApp<SfcCompiler>('vue/compiler-sfc', nuxt, 'Reading the definitions in server/mcp/')
    const scanAll = async () => new Map(await Promise.all(plans.map(async plan => [plan.key, await scanDefinitions(sfc.babelParse, layers, plan.key)] as const)))
    // `nuxi dev`: a new or removed endpoint folder restarts Nuxt in place, so its route is served or gone.
    const checkEndpointFolders = watchEndpointFolders(nuxt, logger, options, layers.map(layer => layer.serverDir), folders)
    let scanned = await scanAll()
    for (const plan of extra) {
      if (scanned.get(plan.key)?.length === 0) logger.warn(`mcp.endpoints.${plan.key} has no definitions: add them under server/mcp/${plan.key}/tools (or resources, prompts); until then ${plan.route} serves empty lists.`)
    }
    const found: ScannedDefinition[] = [...scanned.values()].flat()
    checkToolViews(found, await views.views())
    warnAboutDefinitions(logger, found, !nuxt.options.dev)
    // `nuxi dev`: the endpoint's URL once it listens, and what the console last said about it.
    let devUrl: string | undefined
    let devReport: DevReport = { summary: '', warnings: new Set(definitionWarnings(found, false)) }
    // Re-scanned on every Nitro build, so files added in `nuxi dev` appear after a reload, with
    // their warnings and the endpoint's new counts.
    addVirtualModule('definitions', async () => {
      scanned = await scanAll()
      checkToolViews([...scanned.values()].flat(), await views.views())
      if (devUrl) devReport = reportRescan(logger, devUrl, devReport, scanned.get('') ?? [])
      if (nuxt.options.dev) await checkEndpointFolders()
      return renderDefinitionsModule(scanned)
    }, runtime)
    // Each endpoint's skills (server/mcp/skills/, server/mcp/<key>/skills/), checked, hashed and
    // measured on every Nitro build (a skill edited in `nuxi dev` is served after the rebuild).
    const scanAllSkills = async () => new Map(await Promise.all(plans.map(async plan => [plan.key, await scanSkills(layers, plan.key)] as const)))
    const hasSkills = async () => [...(await scanAllSkills()).values()].some(found => found.skills.length > 0)
    // A malformed skill fails the build here, before anything else is built.
    await hasSkills()
    addVirtualModule('skills', async () => renderSkillsModule(await scanAllSkills()), runtime)
    // The extension's code is bundled only with skills to serve (a Worker without them carries none of it).
    addWing('skills-runtime', hasSkills, runtime)
    // What the preset leaves out of the bundle (a Worker: much), decided once Nitro knows it.
    setupPresetWings(nuxt, options, logger, {
      runtime,
      // The definitions as last scanned (the definitions module scans again on every build).
      mayDeclareJsonSchema: async () => anyMayDeclareJsonSchema(sfc, [...scanned.values()].flat(), (await views.views()).map(view => view.path)),
    })

    const runtimeIndex = runtime('server/index')
    addServerImports(['defineMcpTool', 'defineMcpResource', 'defineMcpPrompt', 'useMcpElicitation', 'McpElicitationError', 'completeMcpUrlElicitation', 'notifyMcpResourceUpdated', 'notifyMcpListChanged', 'useMcpSession', 'useMcpLogger', 'useMcpTask']
      .map(name => ({ name, from: runtimeIndex })))
    for (const plan of plans) {
      addServerHandler({ route: plan.route, handler: runtime('server/routes/mcp') })
      // The Protected Resource Metadata document of the endpoint (RFC 9728); 404 while OAuth is off there.
      addServerHandler({ route: `/.well-known/oauth-protected-resource${plan.route}`, method: 'get', handler: runtime('server/routes/oauth-metadata') })
    }
    // The app's own page for questions a client cannot show: one route, the token names the
    // endpoint. Registered whatever mcp.elicitation.page says: NUXT_MCP_ELICITATION_PAGE_ENABLED may
    // turn it on at run time, and with it off no link exists, so the route answers 404.
    addServerHandler({ route: '/_mcp/question/:token', handler: runtime('server/routes/question') })
    // Each endpoint's key by route: the one route handler finds its endpoint by the route it matched.
    const keys = Object.fromEntries(plans.map(plan => [plan.route, plan.key]))
    addVirtualModule('options', () => `export const route = ${JSON.stringify(options.route)}\nexport const endpointKeys = ${JSON.stringify(keys)}\n`, runtime)
    // OpenTelemetry only when the app has its API: otherwise nothing of it is imported or bundled.
    const otelApi = options.telemetry === false ? undefined : await tryResolveModule('@opentelemetry/api', nuxt.options.modulesDir)
    if (options.telemetry === true && !otelApi) logger.warn('mcp.telemetry is true but @opentelemetry/api is not installed: no spans are made. Install it (npm i @opentelemetry/api) and register a tracer provider.')
    addVirtualModule('otel', () => otelApi
      ? `import { trace, context, propagation, SpanKind, SpanStatusCode } from '@opentelemetry/api'\nexport const otel = { trace, context, propagation, SpanKind, SpanStatusCode }\n`
      : standInFor('otel'), runtime)
    addServerPlugin(runtime('server/plugins/check-config'))
    addServerPlugin(runtime('server/plugins/shared-state'))

    // One `server/mcp` folder per layer: files added, edited or removed there rebuild Nitro in dev.
    watchDefinitionsInDev(nuxt, virtualId('definitions'), layers.map(layer => resolve(layer.serverDir, 'mcp')))
    watchDefinitionsInDev(nuxt, virtualId('skills'), () => plans.map(plan => layers.map(layer => resolve(layer.serverDir, 'mcp', plan.key, 'skills'))).flat())
    // A view rebuilds when a file in app/mcp/ or any source it imports changes.
    watchDefinitionsInDev(nuxt, virtualId('views'), () => [...views.dirs, ...views.files()])

    if (options.devtools) setupMcpDevtools(nuxt, runtime)

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
