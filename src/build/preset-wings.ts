import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { useNitro } from '@nuxt/kit'
import type { Nuxt } from '@nuxt/schema'
import { dirname, resolve } from 'pathe'
import type { ModuleOptions } from '../module-options'
import { isRecord } from './common'
import type { BuildLogger } from './common'
import { addWing } from './virtual-modules'
import type { RuntimePath } from './virtual-modules'

/** What deciding the wings needs from the module beyond its options. */
export interface WingContext {
  /** Where the runtime files are (the module's resolver). */
  runtime: RuntimePath
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
 * Decides, once Nitro's preset is final, which wings the server bundle carries, and adds the
 * virtual modules that import them or stand in with `undefined`. A Worker's request cannot outlive
 * its response, holds no session and opens no TCP socket: by default it carries no task runtime,
 * no legacy sessions and no Redis side; and the OAuth check (with `jose`) only when `mcp.auth`
 * names an issuer when it is built. Each is logged, with the option that decides it. The virtual
 * modules themselves are `virtual-modules.ts`'s wings.
 *
 * @example
 * ```ts
 * setupPresetWings(nuxt, options, logger, { runtime, mayDeclareJsonSchema })
 * ```
 */
export function setupPresetWings(nuxt: Nuxt, options: ModuleOptions, logger: Pick<BuildLogger, 'info'>, context: WingContext): void {
  let tasks = options.tasks?.background ?? true
  let legacy = options.legacy !== false
  let redis = true
  let bearer = true
  // Elsewhere always; on a Worker only when a tool may write a JSON Schema by hand.
  let jsonSchemaWhenDeclared = false
  let page = options.elicitation?.page?.enabled ?? true
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
    if (options.elicitation?.page?.enabled === undefined && isRecord(config.elicitation) && isRecord(config.elicitation.page)) {
      config.elicitation.page.enabled = false
      page = false
      logger.info(`Preset ${preset}: the app's question page (for clients that cannot show a question) is off and left out of the bundle, as a Worker's isolate keeps nothing between requests (Durable Objects will keep it). Set mcp.elicitation.page.enabled to decide yourself.`)
    }
    if (options.legacy === undefined) {
      config.legacy = false
      legacy = false
      logger.info(`Preset ${preset}: legacy sessions (initialize, ≤ 2025-11-25) are off, as a Worker holds no session; 2026-07-28 clients are served in full. Set mcp.legacy to decide yourself.`)
    }
    // The SDK's own default validator is never asked for (see sdk-shims.ts): a Worker goes without it.
    if (sdkShimsMatch()) nitro.options.alias['@modelcontextprotocol/server/_shims'] = context.runtime('server/common/sdk-shims')
    else logger.info(`Preset ${preset}: the installed MCP SDK's Workers shims are not the ones this module knows, so its default JSON Schema validator stays in the bundle (6 kB).`)
    jsonSchemaWhenDeclared = true
    if (!namesAnIssuer(options)) {
      bearer = false
      logger.info(`Preset ${preset}: mcp.auth names no issuer, so the OAuth token check (and jose) is left out of the bundle. To use OAuth, name the issuers in nuxt.config (mcp.auth.issuers) when you build; NUXT_MCP_AUTH_* can still change them at run time.`)
    }
  })
  addWing('tasks', () => tasks, context.runtime)
  addWing('legacy', () => legacy, context.runtime)
  addWing('redis', () => redis, context.runtime)
  addWing('bearer', () => bearer, context.runtime)
  addWing('page', () => page, context.runtime)
  addWing('json-schema', async () => {
    if (!jsonSchemaWhenDeclared || await context.mayDeclareJsonSchema()) return true
    logger.info('No tool writes a JSON Schema by hand in inputSchema: the JSON Schema validator is left out of the Worker\'s bundle.')
    return false
  }, context.runtime)
}
