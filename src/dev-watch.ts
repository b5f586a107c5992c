import { useNitro } from '@nuxt/kit'
import type { Nuxt } from '@nuxt/schema'

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
