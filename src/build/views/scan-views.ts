import { readdir } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { basename, relative, resolve } from 'pathe'
import { VIEW_FIELD } from '../definitions/read'

/** One MCP App view: a single-file component at `app/mcp/<name>.vue` in the app or a layer. */
export interface ScannedView {
  /** The file name without `.vue`: the view's name, served as `ui://<name>`. */
  name: string
  /** Absolute path of the `.vue` file. */
  path: string
  /** Path shown in messages: relative to its layer's root. */
  file: string
}

/** A name that stays one path segment of a `ui://` URI, as written, in every host. */
const VIEW_NAME = /^[a-z0-9][a-z0-9_-]*$/i

/** Where a layer keeps its views: `<srcDir>/mcp` (Nuxt 4: `app/mcp`). */
export interface ViewLayer { rootDir: string, srcDir: string }

/**
 * Finds the views of the app and its layers: each `*.vue` directly in a layer's `app/mcp/`
 * (subfolders are for the components views import). The app's own file wins over a layer's of the
 * same name, as for definitions.
 *
 * @example
 * ```ts
 * const views = await scanViews([{ rootDir: '/app', srcDir: '/app/app' }])
 * // [{ name: 'weather', path: '/app/app/mcp/weather.vue', file: 'app/mcp/weather.vue' }]
 * ```
 */
export async function scanViews(layers: ViewLayer[]): Promise<ScannedView[]> {
  const byName = new Map<string, ScannedView>()
  for (const layer of layers) {
    const dir = resolve(layer.srcDir, 'mcp')
    if (!existsSync(dir)) continue
    const entries = (await readdir(dir, { withFileTypes: true })).filter(entry => entry.isFile() && entry.name.endsWith('.vue'))
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = resolve(dir, entry.name)
      const name = basename(entry.name, '.vue')
      const file = relative(layer.rootDir, path)
      if (!VIEW_NAME.test(name)) {
        throw new Error(`[nuxt-mcp-elicitation] ${file}: "${name}" cannot name an MCP App (it is served as ui://${name}). Use letters, digits, "-" and "_", starting with a letter or digit.`)
      }
      // Layers come app first: the first file of a name is the one that wins.
      if (!byName.has(name)) byName.set(name, { name, path, file })
    }
  }
  return [...byName.values()]
}

/**
 * Every tool that names a view (`view: '…'`, read statically) which does not exist, as one build
 * error naming the tool, its file and the views there are.
 *
 * @example
 * ```ts
 * checkToolViews([{ kind: 'tools', name: 'show', file: 'server/mcp/tools/show.ts', view: 'chart' }], views)
 * ```
 */
export function checkToolViews(tools: { kind: string, name: string, file: string, view?: string }[], views: ScannedView[]): void {
  const names = new Set(views.map(view => view.name))
  const missing = tools.filter(tool => tool.kind === 'tools' && tool.view !== undefined && !names.has(tool.view))
  if (missing.length === 0) return
  const known = [...names].map(name => `"${name}"`).join(', ') || 'none'
  const list = missing.map(tool => `the tool "${tool.name}" (${tool.file}) names "${tool.view}"`).join('; ')
  throw new Error(`[nuxt-mcp-elicitation] No MCP App view of that name: ${list}. Views are app/mcp/<name>.vue (here: ${known}). Add the view, or fix \`${VIEW_FIELD}\`.`)
}
