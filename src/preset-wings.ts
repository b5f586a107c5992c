import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { addServerTemplate, addTypeTemplate, useNitro } from '@nuxt/kit'
import type { Nuxt } from '@nuxt/schema'
import { dirname, resolve } from 'pathe'
import type { ModuleOptions } from './module-options'

/** What this file needs of the module's logger. */
interface WingLogger {
  info: (message: string) => void
}

/** The runtime files of the wings a preset may leave out of the bundle, and how to tell. */
export interface WingFiles {
  tasks: string
  legacy: string
  redis: string
  bearer: string
  jsonSchema: string
  /** What a Worker's bundle puts in place of the SDK's own `_shims` (no default validator). */
  sdkShims: string
  /** Whether any tool may hand a JSON Schema written by hand to `inputSchema` (read at each build). */
  mayDeclareJsonSchema: () => Promise<boolean>
}

/** The names the SDK's Workers shims module exports, as `sdk-shims.ts` stands in for them. */
const SDK_SHIM_EXPORTS = 'DefaultJsonSchemaValidator,process'

/**
 * Whether the installed MCP SDK's Workers shims export exactly what `sdk-shims.ts` does: only
 * then may the build point the SDK's import of them there (a newer SDK may need more of them).
 */
function sdkShimsMatch(): boolean {
  try {
    const dist = dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server'))
    const source = readFileSync(resolve(dist, 'shimsWorkerd.mjs'), 'utf8')
    const names = [...source.matchAll(/export\s*\{([^}]*)\}/g)].flatMap(match => match[1]!.split(',').map(item => item.trim().split(/\s+as\s+/).pop()!).filter(Boolean))
    return names.sort().join(',') === SDK_SHIM_EXPORTS
  }
  catch {
    return false
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Presets whose platform serves the app only under hostnames it controls (a rebound DNS name
 * never reaches it), so the Host check has nothing to protect there.
 */
function isPublicPreset(preset: string): boolean {
  return /^(?:cloudflare|vercel|netlify|deno-deploy)/.test(preset.replace(/_/g, '-'))
}

/** Whether `mcp.auth`, or any endpoint's `auth`, names an issuer at build time. */
function namesAnIssuer(options: ModuleOptions): boolean {
  const auths = [options.auth, ...Object.values(options.endpoints ?? {}).map(endpoint => endpoint.auth)]
  return auths.some(auth => (auth?.issuers?.length ?? 0) > 0)
}

/**
 * A server template `name` exporting `exportName` from `file` when `included()` says so at build
 * time, else `undefined`, with its type: how a wing the preset rules out stays out of the bundle.
 */
function addOptionalExport(name: string, exportName: string, file: string, included: () => boolean | Promise<boolean>): void {
  addServerTemplate({ filename: name, getContents: async () => await included() ? `export { ${exportName} } from ${JSON.stringify(file)}\n` : `export const ${exportName} = undefined\n` })
  addTypeTemplate({ filename: `types/${name.slice(1).replace('/', '-')}.d.ts`, getContents: () => `declare module '${name}' {\n  export const ${exportName}: typeof import('${file}').${exportName} | undefined\n}\n` }, { nitro: true })
}

/**
 * Decides, once Nitro's preset is final, which wings the server bundle carries, and adds the
 * virtual modules that import them or stand in with `undefined`. A Worker's request cannot outlive
 * its response, holds no session and opens no TCP socket: by default it carries no task runtime,
 * no legacy sessions and no Redis side; and the OAuth check (with `jose`) only when `mcp.auth`
 * names an issuer when it is built. Each is logged, with the option that decides it.
 *
 * @example
 * ```ts
 * setupPresetWings(nuxt, options, logger, { tasks: resolver.resolve('./runtime/server/tasks/calls/runtime'), … })
 * ```
 */
export function setupPresetWings(nuxt: Nuxt, options: ModuleOptions, logger: WingLogger, files: WingFiles): void {
  let tasks = options.tasks?.background ?? true
  let legacy = options.legacy !== false
  let redis = true
  let bearer = true
  // Elsewhere always; on a Worker only when a tool may write a JSON Schema by hand.
  let jsonSchemaWhenDeclared = false
  // The preset is final only once Nitro starts (it may be detected from the platform).
  nuxt.hook('ready', () => {
    const nitro = useNitro()
    const config = nitro.options.runtimeConfig.mcp
    const preset = nitro.options.preset
    if (!isRecord(config)) return
    if ((options.allowedHosts ?? []).length === 0 && isPublicPreset(preset)) {
      config.allowedHosts = ['*']
      logger.info(`Preset ${preset}: the platform serves only its own hostnames, so the MCP endpoint's DNS-rebinding check is off (allowedHosts: ['*']).`)
    }
    if (!preset.startsWith('cloudflare')) return
    // No TCP sockets on Workers: the Redis side (loaded only for NUXT_MCP_REDIS_URL) stays out.
    redis = false
    if (options.tasks?.background === undefined && isRecord(config.tasks)) {
      config.tasks.background = false
      tasks = false
      logger.info(`Preset ${preset}: tasks run inline (taskSupport 'optional') or are refused ('required'), as a Worker's request cannot outlive its response; the task runtime is left out of the bundle. Set mcp.tasks.background to decide yourself.`)
    }
    if (options.legacy === undefined) {
      config.legacy = false
      legacy = false
      logger.info(`Preset ${preset}: legacy sessions (initialize, ≤ 2025-11-25) are off, as a Worker holds no session; 2026-07-28 clients are served in full. Set mcp.legacy to decide yourself.`)
    }
    // The SDK's own default validator is never asked for (see sdk-shims.ts): a Worker goes without it.
    if (sdkShimsMatch()) nitro.options.alias['@modelcontextprotocol/server/_shims'] = files.sdkShims
    else logger.info(`Preset ${preset}: the installed MCP SDK's Workers shims are not the ones this module knows, so its default JSON Schema validator stays in the bundle (6 kB).`)
    jsonSchemaWhenDeclared = true
    if (!namesAnIssuer(options)) {
      bearer = false
      logger.info(`Preset ${preset}: mcp.auth names no issuer, so the OAuth token check (and jose) is left out of the bundle. To use OAuth, name the issuers in nuxt.config (mcp.auth.issuers) when you build; NUXT_MCP_AUTH_* can still change them at run time.`)
    }
  })
  addOptionalExport('#mcp-elicitation/tasks', 'createTaskRuntime', files.tasks, () => tasks)
  addOptionalExport('#mcp-elicitation/legacy', 'createLegacySessions', files.legacy, () => legacy)
  addOptionalExport('#mcp-elicitation/redis', 'connectSharedState', files.redis, () => redis)
  addOptionalExport('#mcp-elicitation/bearer', 'createBearerCheck', files.bearer, () => bearer)
  addOptionalExport('#mcp-elicitation/json-schema', 'jsonSchemaArguments', files.jsonSchema, async () => {
    if (!jsonSchemaWhenDeclared || await files.mayDeclareJsonSchema()) return true
    logger.info('No tool writes a JSON Schema by hand in inputSchema: the JSON Schema validator is left out of the Worker\'s bundle.')
    return false
  })
}
