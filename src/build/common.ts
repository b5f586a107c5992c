/**
 * What every build-time file shares: the one record check and the one logger type. Build time
 * runs in Nuxt's process while the app is built; nothing here is bundled into the server.
 */

import { pathToFileURL } from 'node:url'
import { tryResolveModule } from '@nuxt/kit'
import type { Nuxt } from '@nuxt/schema'

/**
 * The part of the module's logger (`useLogger('nuxt-mcp-elicitation')`) build-time code writes
 * to: the build's news and the mistakes that still build.
 *
 * @example
 * ```ts
 * const logger: BuildLogger = useLogger('nuxt-mcp-elicitation')
 * logger.warn('server/mcp/tools/a.ts: the tool "a" has no `description`.')
 * ```
 */
export interface BuildLogger {
  info: (message: string) => void
  warn: (message: string) => void
}

/**
 * True for a plain object (not `null`, not an array): how build-time code reads what users and
 * other modules put in `nuxt.options` before it trusts a key.
 *
 * @example
 * ```ts
 * const existing: unknown = nuxt.options.runtimeConfig.mcp
 * if (isRecord(existing) && typeof existing.stateSecret === 'string') warn()
 * ```
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Imports a package the way the app resolves it (the Vite and Vue that Nuxt itself runs), or
 * fails the build naming the package, what needs it and the fix.
 *
 * @example
 * ```ts
 * const sfc = await importFromApp<SfcCompiler>('vue/compiler-sfc', nuxt, 'Reading the definitions in server/mcp/')
 * ```
 */
export async function importFromApp<T>(name: string, nuxt: Nuxt, purpose: string): Promise<T> {
  const path = await tryResolveModule(name, nuxt.options.modulesDir)
  if (!path) throw new Error(`[nuxt-mcp-elicitation] ${purpose} needs ${name}, which this app does not resolve. Install it (npm i -D ${name}).`)
  return import(pathToFileURL(path).href) as Promise<T>
}
