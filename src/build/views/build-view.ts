import { readFile } from 'node:fs/promises'
import type { ScannedView } from './scan-views'
import type { SfcCompiler } from '../ast'
import { browserSourceOf } from './view-tool'

/** The slice of Vite's `build()` this file uses (resolved from the app: the Vite Nuxt runs). */
export type ViteBuild = (config: Record<string, unknown>) => Promise<unknown>

/** What building views needs from the app. */
export interface ViewBuildContext {
  rootDir: string
  /** Vite's `build`, and `@vitejs/plugin-vue`'s factory, both resolved from the app. */
  build: ViteBuild
  vuePlugin: () => unknown
  /** The module's view runtime (`runtime/view/index`), auto-imported in views. */
  runtimeEntry: string
  /** `~`, `@`, `~~`, `@@`: the app's aliases a view may import through. */
  alias: Record<string, string>
  /** Whether to minify (production builds). */
  minify: boolean
  /** Vue's SFC compiler, to take a tool the view declares out of its browser bundle. */
  sfc: SfcCompiler
}

/** One built view: a self-contained HTML document and the files it was built from. */
export interface BuiltView {
  html: string
  /** Every source file in the bundle (absolute paths): a change to one rebuilds the view. */
  files: string[]
}

const ENTRY_ID = 'virtual:mcp-view-entry'
const AUTO_IMPORTS = ['useMcpView', 'defineMcpView'] as const

interface OutputChunk { type: 'chunk', code: string, moduleIds?: string[], modules?: Record<string, unknown> }
interface OutputAsset { type: 'asset', fileName: string, source: string | Uint8Array }

function outputsOf(result: unknown): (OutputChunk | OutputAsset)[] {
  const results = Array.isArray(result) ? result : [result]
  return results.flatMap((entry: { output?: (OutputChunk | OutputAsset)[] }) => entry.output ?? [])
}

/** `</script` inside inlined code would end the element early; `<\/script` means the same to JS. */
function inlineScript(code: string): string {
  return code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--')
}

/**
 * Adds `import { useMcpView, defineMcpView } from '…'` to a view's `<script setup>` when it uses
 * them without importing: they are auto-imported in `app/mcp/*.vue`, as Nuxt's composables are
 * in pages.
 */
export function addViewAutoImports(source: string, runtimeEntry: string): string {
  const used = AUTO_IMPORTS.filter(name => new RegExp(`\\b${name}\\s*\\(`).test(source) && !new RegExp(`import\\s*\\{[^}]*\\b${name}\\b`).test(source))
  if (used.length === 0) return source
  const line = `\nimport { ${used.join(', ')} } from ${JSON.stringify(runtimeEntry)}\n`
  const setup = /<script\b[^>]*\bsetup\b[^>]*>/.exec(source)
  if (setup) return source.slice(0, setup.index + setup[0].length) + line + source.slice(setup.index + setup[0].length)
  return `<script setup lang="ts">${line}</script>\n${source}`
}

/**
 * Builds one view into one self-contained HTML document: the component, Vue and ext-apps' `App`
 * bundled as one ES module, its CSS in a `<style>`, both inline (hosts load a view from a string,
 * with no server to fetch chunks from).
 *
 * @example
 * ```ts
 * const { html } = await buildView({ name: 'chart', path: '/app/app/mcp/chart.vue', file: 'app/mcp/chart.vue' }, context)
 * ```
 */
export async function buildView(view: ScannedView, context: ViewBuildContext): Promise<BuiltView> {
  const entry = `import { createApp } from 'vue'\nimport { connectMcpView } from ${JSON.stringify(context.runtimeEntry)}\nimport View from ${JSON.stringify(view.path)}\nconnectMcpView({ name: ${JSON.stringify(view.name)}, version: '1.0.0' })\ncreateApp(View).mount('#app')\n`
  const result = await context.build({
    configFile: false,
    envFile: false,
    logLevel: 'silent',
    root: context.rootDir,
    mode: context.minify ? 'production' : 'development',
    resolve: { alias: context.alias, dedupe: ['vue'] },
    plugins: [
      {
        name: 'nuxt-mcp-elicitation:view',
        enforce: 'pre',
        resolveId: (id: string) => id === ENTRY_ID ? `\0${ENTRY_ID}` : undefined,
        load: async (id: string) => {
          if (id === `\0${ENTRY_ID}`) return entry
          if (id.endsWith('.vue') && !id.includes('node_modules')) {
            const source = await readFile(id, 'utf8')
            // The view itself may declare a tool (@nuxtjs/mcp-toolkit's way): its handler stays on the server.
            const browser = id === view.path ? browserSourceOf(context.sfc, source, view.file, view.path) : source
            return addViewAutoImports(browser, context.runtimeEntry)
          }
          return undefined
        },
      },
      context.vuePlugin(),
    ],
    define: {
      'process.env.NODE_ENV': JSON.stringify(context.minify ? 'production' : 'development'),
      '__VUE_OPTIONS_API__': 'true',
      '__VUE_PROD_DEVTOOLS__': 'false',
      '__VUE_PROD_HYDRATION_MISMATCH_DETAILS__': 'false',
    },
    build: {
      write: false,
      minify: context.minify,
      sourcemap: false,
      cssCodeSplit: false,
      modulePreload: false,
      reportCompressedSize: false,
      rolldownOptions: { input: ENTRY_ID, output: { format: 'es', codeSplitting: false } },
    },
  })
  const outputs = outputsOf(result)
  const script = outputs.filter((output): output is OutputChunk => output.type === 'chunk').map(chunk => chunk.code).join('\n')
  const css = outputs.filter((output): output is OutputAsset => output.type === 'asset' && output.fileName.endsWith('.css')).map(asset => String(asset.source)).join('\n')
  const files = outputs.flatMap(output => output.type === 'chunk' ? output.moduleIds ?? Object.keys(output.modules ?? {}) : []).filter(id => id.startsWith('/') && !id.includes('\0'))
  const html = `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${view.name}</title>\n${css ? `<style>${css.replace(/<\/(style)/gi, '<\\/$1')}</style>\n` : ''}</head>\n<body>\n<div id="app"></div>\n<script type="module">${inlineScript(script)}</script>\n</body>\n</html>\n`
  return { html, files: [...new Set(files.map(id => id.split('?')[0]!))] }
}
