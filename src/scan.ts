import { readFile } from 'node:fs/promises'
import { basename, extname, relative, resolve } from 'pathe'
import { resolveFiles } from '@nuxt/kit'
import { headerProblems } from './scan-headers'

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
  layerIndex: number
  /** The MCP App view a tool names with `view: '…'` (read statically). */
  view?: string
}

const PATTERN = '**/*.{ts,js,mjs,mts}'

/**
 * Reads the keys written at the top level of the `defineMcp*({ … })` object, without running the
 * file: key → its string literal value, or `true` when the value is not a plain string. Enough
 * for build-time checks (duplicate names, missing descriptions); computed keys are not seen.
 */
export function readTopLevelKeys(source: string): Map<string, string | true> {
  const keys = new Map<string, string | true>()
  const call = /defineMcp(?:Tool|Resource|Prompt)\s*\(\s*\{/.exec(source)
  if (!call) return keys
  let depth = 1
  let quote: string | undefined
  for (let i = call.index + call[0].length; i < source.length && depth > 0; i++) {
    const char = source[i]!
    if (quote) {
      if (char === '\\') i++
      else if (char === quote) quote = undefined
      continue
    }
    if (char === '"' || char === '\'' || char === '`') quote = char
    else if ('{[('.includes(char)) depth++
    else if ('}])'.includes(char)) depth--
    else if (depth === 1 && /[\s,{]/.test(source[i - 1] ?? '') && /[A-Za-z_$]/.test(char)) {
      const key = /^([A-Za-z_$][\w$]*)\s*:\s*(?:(['"`])([^'"`\\]*)\2\s*[,}\n])?/.exec(source.slice(i))
      if (key && !keys.has(key[1]!)) keys.set(key[1]!, key[3] ?? true)
      // Also catch shorthand and method keys (`handler() {}`, `description,`).
      else if (!key) {
        const bare = /^([A-Za-z_$][\w$]*)\s*[,(}]/.exec(source.slice(i))
        if (bare && !keys.has(bare[1]!)) keys.set(bare[1]!, true)
      }
      i += (key?.[1] ?? '').length
    }
  }
  return keys
}

/** Constructs a form field cannot be (the runtime refuses them with 'invalid-schema'). */
const REFUSED_IN_FORMS: [RegExp, string][] = [
  [/\bz\.object\s*\(/, 'z.object (nested objects)'],
  [/\bz\.record\s*\(/, 'z.record'],
  [/\bz\.tuple\s*\(/, 'z.tuple'],
  [/\bz\.date\s*\(/, 'z.date (use z.iso.date() or z.iso.datetime())'],
  [/\bz\.discriminatedUnion\s*\(/, 'z.discriminatedUnion'],
  [/\bz\.array\s*\(\s*z\.(?:number|boolean|object|string)\s*\(/, 'z.array of anything but enums (use z.array(z.enum([...])))'],
]

/**
 * Finds refused constructs written literally inside `.form({ … })` calls: the same mistake the
 * runtime reports with `'invalid-schema'`, caught at build time. A heuristic over the source text:
 * shapes built elsewhere are only checked at run time.
 */
export function findRefusedFormConstructs(source: string): string[] {
  const found = new Set<string>()
  for (const call of source.matchAll(/\.form\s*\(\s*\{/g)) {
    let depth = 0
    let end = call.index + call[0].length - 1
    for (; end < source.length; end++) {
      if (source[end] === '{' || source[end] === '(') depth++
      else if (source[end] === '}' || source[end] === ')') depth--
      if (depth === 0) break
    }
    const body = source.slice(call.index, end)
    for (const [pattern, label] of REFUSED_IN_FORMS) if (pattern.test(body)) found.add(label)
  }
  return [...found]
}

/**
 * Reads the `name: '…'` written at the top level of the `defineMcp*({ … })` object, without
 * running the file: enough to detect duplicate names at build time. A computed name is not seen
 * here; the runtime registry still refuses duplicates then.
 */
export function readDeclaredName(source: string): string | undefined {
  const name = readTopLevelKeys(source).get('name')
  return typeof name === 'string' && name ? name : undefined
}

/**
 * Finds every definition in `server/mcp/{tools,resources,prompts}` of each layer (or, for another
 * endpoint, `server/mcp/<folder>/{tools,resources,prompts}`). Layers come app first: a name
 * defined by the app hides the same name from a layer; two files with one name inside the same
 * layer are a build error naming both, and so is a tool whose literal `x-mcp-header` annotations
 * break the header rules (`scan-headers.ts`).
 *
 * @example
 * ```ts
 * const found = await scanDefinitions([{ serverDir: '/app/server', rootDir: '/app' }])
 * const admin = await scanDefinitions([{ serverDir: '/app/server', rootDir: '/app' }], 'admin')
 * ```
 */
export async function scanDefinitions(layers: { serverDir: string, rootDir: string }[], folder = ''): Promise<ScannedDefinition[]> {
  const chosen = new Map<string, ScannedDefinition>()
  for (const [layerIndex, layer] of layers.entries()) {
    for (const kind of DEFINITION_KINDS) {
      const files = await resolveFiles(resolve(layer.serverDir, 'mcp', folder, kind), PATTERN)
      for (const path of files.sort()) {
        const fallbackName = basename(path, extname(path))
        const source = await readFile(path, 'utf8')
        const keys = readTopLevelKeys(source)
        const declared = keys.get('name')
        const name = typeof declared === 'string' && declared ? declared : fallbackName
        const view = keys.get('view')
        const entry: ScannedDefinition = { kind, path, file: relative(layer.rootDir, path), name, fallbackName, layerIndex, hasDescription: keys.has('description'), refusedFormConstructs: findRefusedFormConstructs(source), ...(kind === 'tools' && typeof view === 'string' && { view }) }
        const problems = kind === 'tools' ? headerProblems(source) : []
        if (problems.length > 0) {
          throw new Error(`[nuxt-mcp-elicitation] The tool "${name}" (${entry.file}): ${problems.join('; ')}. (SEP-2243: clients mirror such an argument into an Mcp-Param-<Name> header.)`)
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
      .map(({ entry, index }) => `{ file: ${JSON.stringify(entry.file)}, fallbackName: ${JSON.stringify(entry.fallbackName)}, definition: d${index} }`)
      .join(',\n      ')
    objects.push(`  ${JSON.stringify(key)}: {\n    tools: [\n      ${group('tools')}\n    ],\n    resources: [\n      ${group('resources')}\n    ],\n    prompts: [\n      ${group('prompts')}\n    ],\n  },`)
  }
  return `${imports.join('\n')}\n\nexport default {\n${objects.join('\n')}\n}\n`
}
