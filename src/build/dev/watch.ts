/**
 * Build time in `nuxi dev`: what rebuilds Nitro when definition or view files change, and what
 * restarts Nuxt when an endpoint folder appears or goes. Nothing here runs in `nuxi build`.
 */
import { useNitro } from '@nuxt/kit'
import type { Nuxt } from '@nuxt/schema'
import { findEndpointFolders, planEndpoints } from '../endpoints'
import type { ModuleOptions } from '../../module-options'
import type { BuildLogger } from '../common'

/** The slice of Rollup's plugin context this plugin uses (Rollup itself is Nitro's dependency). */
interface WatchFileContext { addWatchFile: (id: string) => void }

/** A Rollup plugin that only adds watch paths. */
export interface DefinitionWatchPlugin {
  name: string
  transform: (this: WatchFileContext, code: string, id: string) => null
}

/**
 * A Rollup plugin that makes Nitro's own dev watcher rebuild when a definition file is added,
 * edited or removed. The definitions module (`moduleId`) is re-scanned on every build, so one
 * rebuild is all a new or removed file needs.
 *
 * Why not `rollup:reload`: that closes and re-creates Nitro's watcher, racing the rebuild Nitro's
 * watcher already started for an edit; an edit landing in between is lost, and a build cut off
 * mid-way can leave Nitro's dev server "building" (requests wait). Watching the folders from
 * inside the one Rollup watcher keeps a single builder.
 *
 * Why as a transform dependency of the definitions module: Rollup watches those with a watcher
 * of their own. Its main watcher stops watching a module file once it is deleted, and chokidar then
 * ignores that path for good, so re-creating a deleted tool file would go unnoticed there.
 *
 * @example
 * ```ts
 * nitro.hooks.hook('rollup:before', (_nitro, config) => {
 *   config.plugins = [config.plugins, watchDefinitionDirs('#mcp-elicitation/definitions', ['/app/server/mcp'])]
 * })
 * ```
 */
export function watchDefinitionDirs(moduleId: string, dirs: string[] | (() => string[])): DefinitionWatchPlugin {
  return {
    name: 'nuxt-mcp-elicitation:watch-definitions',
    transform(_code, id) {
      // Chokidar watches a folder recursively, and a folder that does not exist yet once it appears.
      if (id.endsWith(moduleId)) for (const dir of typeof dirs === 'function' ? dirs() : dirs) this.addWatchFile(dir)
      return null
    },
  }
}

/**
 * Adds {@link watchDefinitionDirs} to Nitro's dev build of `nuxt`.
 *
 * @example
 * ```ts
 * watchDefinitionsInDev(nuxt, '#mcp-elicitation/definitions', ['/app/server/mcp'])
 * ```
 */
export function watchDefinitionsInDev(nuxt: Nuxt, moduleId: string, dirs: string[] | (() => string[])): void {
  if (!nuxt.options.dev) return
  // Nitro exists by `ready`; its first build (which calls `rollup:before`) starts after it.
  nuxt.hook('ready', () => {
    useNitro().hooks.hook('rollup:before', (_nitro, config) => {
      config.plugins = [config.plugins, watchDefinitionDirs(moduleId, dirs)]
    })
  })
}

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
export function watchEndpointFolders(nuxt: Nuxt, logger: Pick<BuildLogger, 'info'>, options: Pick<ModuleOptions, 'route' | 'endpoints'>, serverDirs: string[], folders: string[]): () => Promise<void> {
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
