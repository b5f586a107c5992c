import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { addTypeTemplate } from '@nuxt/kit'
import type { Nuxt } from '@nuxt/schema'
import { dirname, resolve } from 'pathe'
import type { McpView } from '../../runtime/server/mcp/views/apps'
import { buildView } from './build-view'
import type { BuiltView, ViewBuildContext, ViteBuild } from './build-view'
import { scanViews } from './scan-views'
import type { ScannedView, ViewLayer } from './scan-views'
import { readViewDefinition } from './view-definition'
import type { ViewTool } from './view-tool'
import type { SfcCompiler } from './view-definition'
import { importFromApp } from '../common'
import type { BuildLogger } from '../common'
import { addVirtualModule } from '../virtual-modules'
import type { RuntimePath } from '../virtual-modules'

/** What needs Vite, its Vue plugin and Vue's compiler, in the error when the app lacks one. */
const VIEWS_NEED = 'Building the MCP App views in app/mcp/'

/** Where the module's runtime files are: the view runtime, the server's `mcp/apps`, and what wraps a view's own tool. */
export interface ViewRuntimePaths { runtime: RuntimePath, runtimeEntry: string, appsModule: string, viewToolsModule: string }

/** A built view and the sources it was built from, with their contents when built; the module of the tool it declares. */
interface CachedView { view: McpView, sources: Map<string, string>, toolModule?: string }

/**
 * Writes the server module of a tool a view declares: the view's imports the tool uses, then
 * `defineMcpViewTool(name, { … })` around the definition as written. A real `.ts` file in the
 * build folder, so Nitro compiles its TypeScript like any server file.
 */
async function writeViewToolModule(buildDir: string, name: string, tool: ViewTool, viewToolsModule: string): Promise<string> {
  const path = resolve(buildDir, 'mcp-elicitation/view-tools', `${name}.ts`)
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, [`import { defineMcpViewTool } from ${JSON.stringify(viewToolsModule)}`, ...tool.imports, '', `export default defineMcpViewTool(${JSON.stringify(name)}, ${tool.source})`, ''].join('\n'))
  return path
}

async function unchanged(cached: CachedView): Promise<boolean> {
  for (const [file, content] of cached.sources) {
    if (await readFile(file, 'utf8').catch(() => undefined) !== content) return false
  }
  return true
}

async function readSources(built: BuiltView, entry: string): Promise<Map<string, string>> {
  const files = [...new Set([entry, ...built.files.filter(file => !file.includes('/node_modules/'))])]
  return new Map(await Promise.all(files.map(async file => [file, await readFile(file, 'utf8').catch(() => '')] as const)))
}

/**
 * Build-time setup of MCP App views (`app/mcp/*.vue` in the app and its layers): finds them,
 * builds each into one HTML document with Vite (once per build; in `nuxi dev` again only when one
 * of its source files changed, which the console tells), and serves them to the runtime as
 * `#mcp-elicitation/views`. Returns the views found now, for the build-time checks of `view:`.
 *
 * @example
 * ```ts
 * const views = setupMcpViews(nuxt, [{ rootDir: '/app', srcDir: '/app/app' }], logger, { runtime, runtimeEntry, appsModule, viewToolsModule })
 * ```
 */
export function setupMcpViews(nuxt: Nuxt, layers: ViewLayer[], logger: Pick<BuildLogger, 'info'>, paths: ViewRuntimePaths): { views: () => Promise<ScannedView[]>, dirs: string[], files: () => string[] } {
  const { runtimeEntry, appsModule } = paths
  const cache = new Map<string, CachedView>()
  let context: Promise<{ build: ViewBuildContext, sfc: SfcCompiler }> | undefined
  const loadContext = () => context ??= (async () => {
    const vite = await importFromApp<{ build: ViteBuild }>('vite', nuxt, VIEWS_NEED)
    const vue = await importFromApp<{ default: () => unknown }>('@vitejs/plugin-vue', nuxt, VIEWS_NEED)
    const sfc = await importFromApp<SfcCompiler>('vue/compiler-sfc', nuxt, VIEWS_NEED)
    const { alias } = nuxt.options
    const build: ViewBuildContext = {
      rootDir: nuxt.options.rootDir,
      build: vite.build,
      vuePlugin: vue.default,
      runtimeEntry,
      alias: Object.fromEntries(['~', '@', '~~', '@@'].flatMap(key => alias[key] ? [[key, alias[key]]] : [])),
      minify: !nuxt.options.dev,
      sfc,
    }
    return { build, sfc }
  })()

  const buildAll = async (): Promise<CachedView[]> => {
    const scanned = await scanViews(layers)
    if (scanned.length === 0) return []
    const { build, sfc } = await loadContext()
    return Promise.all(scanned.map(async (found) => {
      const cached = cache.get(found.path)
      if (cached && await unchanged(cached)) return cached
      const started = Date.now()
      const definition = readViewDefinition(sfc, await readFile(found.path, 'utf8'), found.file, found.path)
      const built = await buildView(found, build)
      const { tool, ...meta } = definition
      const view: McpView = { name: found.name, file: found.file, ...meta, html: built.html }
      const toolModule = tool && await writeViewToolModule(nuxt.options.buildDir, found.name, tool, paths.viewToolsModule)
      // In `nuxi dev` a rebuild is news: say which view and how long it took.
      if (cached) logger.info(`MCP App ui://${found.name} rebuilt from ${found.file} in ${Date.now() - started} ms.`)
      const entry: CachedView = { view, sources: await readSources(built, found.path), ...(toolModule && { toolModule }) }
      cache.set(found.path, entry)
      return entry
    }))
  }

  // The HTML goes in as base64: Nitro's bundler replaces `typeof window`, `process.env.…` and
  // the like as text, inside string literals too, which broke the inlined script of a view.
  addVirtualModule('views', async () => {
    const built = await buildAll()
    const views = built.map(({ view: { html, ...view } }) => ({ ...view, html: Buffer.from(html).toString('base64') }))
    // Tools declared inside views (@nuxtjs/mcp-toolkit's way): one generated module each.
    const tools = built.flatMap(entry => entry.toolModule ? [{ module: entry.toolModule, file: entry.view.file, name: entry.view.name }] : [])
    return [
      `import { decodeViews } from ${JSON.stringify(appsModule)}`,
      ...tools.map((tool, index) => `import tool${index} from ${JSON.stringify(tool.module)}`),
      `export default decodeViews(${JSON.stringify(views)})`,
      `export const viewTools = [${tools.map((tool, index) => `{ file: ${JSON.stringify(tool.file)}, fallbackName: ${JSON.stringify(tool.name)}, definition: tool${index} }`).join(', ')}]`,
      '',
    ].join('\n')
  }, paths.runtime)
  // `useMcpView` and `defineMcpView` are auto-imported in views: declared globally for vue-tsc and editors.
  addTypeTemplate({ filename: 'types/mcp-elicitation-view.d.ts', getContents: () => `export {}\ndeclare global {\n  const useMcpView: typeof import('${runtimeEntry}').useMcpView\n  const defineMcpView: typeof import('${runtimeEntry}').defineMcpView\n}\n` })

  return {
    views: () => scanViews(layers),
    dirs: layers.map(layer => resolve(layer.srcDir, 'mcp')),
    files: () => [...cache.values()].flatMap(cached => [...cached.sources.keys()]),
  }
}
