import type { Nuxt } from '@nuxt/schema'
import { findEndpointFolders, planEndpoints } from './endpoints'
import type { ModuleOptions } from './module-options'

interface Logger { info: (message: string) => void }

/**
 * In `nuxi dev`: a check, run on every rebuild of the definitions, that restarts Nuxt in place
 * (nuxi keeps its listener and port) when a `server/mcp/<key>/` folder appears or goes. An
 * endpoint is a route registered when Nuxt starts, so this is what serves a new one, or stops
 * serving a removed one, without the developer doing anything. A key `mcp.endpoints` declares
 * is a route with or without its folder, and never causes a restart.
 *
 * @example
 * ```ts
 * const checkEndpointFolders = watchEndpointFolders(nuxt, logger, options, serverDirs, folders)
 * // on each rebuild of the definitions template:
 * await checkEndpointFolders()
 * ```
 */
export function watchEndpointFolders(nuxt: Nuxt, logger: Logger, options: Pick<ModuleOptions, 'route' | 'endpoints'>, serverDirs: string[], folders: string[]): () => Promise<void> {
  const declared = Object.keys(options.endpoints ?? {})
  const served = new Set(folders.filter(key => !declared.includes(key)))
  let restarting = false
  return async () => {
    if (restarting) return
    const now = new Set(await findEndpointFolders(serverDirs))
    const added = [...now].filter(key => !served.has(key) && !declared.includes(key))
    const removed = [...served].filter(key => !now.has(key))
    if (added.length === 0 && removed.length === 0) return
    restarting = true
    const routeOf = (key: string) => planEndpoints(options.route, [key], {}).find(plan => plan.key === key)?.route ?? key
    for (const key of added) logger.info(`server/mcp/${key}/ is a new endpoint folder: restarting Nuxt to serve it at ${routeOf(key)}.`)
    for (const key of removed) logger.info(`server/mcp/${key}/ is gone: restarting Nuxt to stop serving ${routeOf(key)}.`)
    // After this build has finished with the template: a restart closes this Nuxt instance.
    setTimeout(() => void nuxt.callHook('restart'), 0)
  }
}
