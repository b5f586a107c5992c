/**
 * The definitions at build time: finding each endpoint's definition files in every layer, reading
 * each once (`read.ts`), and the server module that imports them. It must not know how a
 * definition runs: nothing here executes a definition file.
 */
import { readFile } from 'node:fs/promises'
import { basename, dirname, extname, relative, resolve } from 'pathe'
import { resolveFiles } from '@nuxt/kit'
import type { SfcCompiler } from '../ast'
import { headerProblems, readDefinition } from './read'

/** The three kinds of definition folders under `server/mcp/`. */
const DEFINITION_KINDS = ['tools', 'resources', 'prompts'] as const
export type DefinitionKind = typeof DEFINITION_KINDS[number]

/** One definition file found in a layer. */
export interface ScannedDefinition {
  kind: DefinitionKind
  path: string
  /** Path shown in messages: relative to the layer's root. */
  file: string
  /** The `name` the definition declares (read statically), else the file name. */
  name: string
  /** Whether a top-level `description` is written (clients and models rely on it). */
  hasDescription: boolean
  /** Zod constructs in the file's `form({ … })` calls that the form converter refuses. */
  refusedFormConstructs: string[]
  fallbackName: string
  /** A tool's folder under `tools/` (`admin` for `tools/admin/ban.ts`, `admin/users` deeper): its group unless it sets one. */
  folder?: string
  layerIndex: number
  /** The MCP App view a tool names with `view: '…'` (read statically). */
  view?: string
  /** Whether a tool may hand a JSON Schema written by hand to `inputSchema` (see `read.ts`). */
  mayDeclareJsonSchema: boolean
}

const PATTERN = '**/*.{ts,js,mjs,mts}'

/**
 * Finds every definition in `server/mcp/{tools,resources,prompts}` of each layer (or, for another
 * endpoint, `server/mcp/<folder>/{tools,resources,prompts}`). Layers come app first: a name
 * defined by the app hides the same name from a layer; two files with one name inside the same
 * layer are a build error naming both, and so is a tool whose literal `x-mcp-header` annotations
 * break the header rules. Each file is read once, with `parse` (Babel, as Vue's compiler ships it).
 *
 * @example
 * ```ts
 * const found = await scanDefinitions(sfc.babelParse, [{ serverDir: '/app/server', rootDir: '/app' }])
 * const admin = await scanDefinitions(sfc.babelParse, [{ serverDir: '/app/server', rootDir: '/app' }], 'admin')
 * ```
 */
export async function scanDefinitions(parse: SfcCompiler['babelParse'], layers: { serverDir: string, rootDir: string }[], folder = ''): Promise<ScannedDefinition[]> {
  const chosen = new Map<string, ScannedDefinition>()
  for (const [layerIndex, layer] of layers.entries()) {
    for (const kind of DEFINITION_KINDS) {
      const kindDir = resolve(layer.serverDir, 'mcp', folder, kind)
      const files = await resolveFiles(kindDir, PATTERN)
      for (const path of files.sort()) {
        // As @nuxtjs/mcp-toolkit infers it: the subfolders between `tools/` and the file.
        const subfolder = relative(kindDir, dirname(path))
        const fallbackName = basename(path, extname(path))
        const reading = readDefinition(parse, await readFile(path, 'utf8'))
        const name = reading.name ?? fallbackName
        const file = relative(layer.rootDir, path)
        const tool = kind === 'tools'
        const entry: ScannedDefinition = { kind, path, file, name, fallbackName, layerIndex, hasDescription: reading.hasDescription, refusedFormConstructs: reading.refusedFormConstructs, mayDeclareJsonSchema: tool && reading.mayDeclareJsonSchema, ...(tool && reading.view !== undefined && { view: reading.view }), ...(tool && subfolder && { folder: subfolder }) }
        const problems = tool ? headerProblems(reading.headers) : []
        if (problems.length > 0) {
          throw new Error(`[nuxt-mcp-elicitation] The tool "${name}" (${file}): ${problems.join('; ')}. (SEP-2243: clients mirror such an argument into an Mcp-Param-<Name> header.)`)
        }
        const key = `${kind}:${name}`
        const existing = chosen.get(key)
        if (!existing) {
          chosen.set(key, entry)
        }
        else if (existing.layerIndex === layerIndex) {
          throw new Error(`[nuxt-mcp-elicitation] Two ${kind.slice(0, -1)}s are named "${name}": ${existing.path} and ${path}. Rename one (its \`name\` or its file).`)
        }
        // Otherwise an earlier layer (the app) already defines it and wins.
      }
    }
  }
  return [...chosen.values()]
}

/**
 * The generated server module importing every definition: one `{ tools, resources, prompts }`
 * object per endpoint, keyed by the endpoint's key (`''` for the default endpoint at `mcp.route`).
 */
export function renderDefinitionsModule(byEndpoint: Map<string, ScannedDefinition[]>): string {
  const imports: string[] = []
  const objects: string[] = []
  for (const [key, found] of byEndpoint) {
    const first = imports.length
    for (const entry of found) imports.push(`import d${imports.length} from ${JSON.stringify(entry.path)}`)
    const group = (kind: DefinitionKind) => found
      .map((entry, index) => ({ entry, index: first + index }))
      .filter(({ entry }) => entry.kind === kind)
      .map(({ entry, index }) => `{ file: ${JSON.stringify(entry.file)}, fallbackName: ${JSON.stringify(entry.fallbackName)}, ${entry.folder ? `folder: ${JSON.stringify(entry.folder)}, ` : ''}definition: d${index} }`)
      .join(',\n      ')
    objects.push(`  ${JSON.stringify(key)}: {\n    tools: [\n      ${group('tools')}\n    ],\n    resources: [\n      ${group('resources')}\n    ],\n    prompts: [\n      ${group('prompts')}\n    ],\n  },`)
  }
  return `${imports.join('\n')}\n\nexport default {\n${objects.join('\n')}\n}\n`
}
