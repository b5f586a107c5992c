/**
 * The module's virtual modules (`#mcp-elicitation/*`): how build time hands the server runtime
 * what only the build knows (the definitions, the views, the routes, and which wings the bundle
 * carries). Each one's name, its type declaration and its stand-in when it is left out are written
 * here once; its contents come from the file whose job they are, through {@link addVirtualModule}.
 * It must not know how any of them is made.
 */
import { addServerTemplate, addTypeTemplate } from '@nuxt/kit'

/**
 * A runtime file's path from its place under `src/runtime/` (`server/mcp/registry`): the module
 * resolves it next to its entry, a test next to the sources.
 *
 * @example
 * ```ts
 * const runtime: RuntimePath = file => resolver.resolve(`./runtime/${file}`)
 * ```
 */
export type RuntimePath = (file: string) => string

/**
 * The wings a build may leave out of the server bundle: the runtime file each virtual module
 * re-exports when the wing is in, and the one export it stands in for with `undefined` otherwise.
 *
 * @example
 * ```ts
 * WINGS.tasks // { file: 'server/tasks/calls/runtime', exportName: 'createTaskRuntime' }
 * ```
 */
export const WINGS = {
  'tasks': { file: 'server/tasks/calls/runtime', exportName: 'createTaskRuntime' },
  'legacy': { file: 'server/transport/sessions/create-legacy-sessions', exportName: 'createLegacySessions' },
  'redis': { file: 'server/cluster/load-redis-state', exportName: 'connectSharedState' },
  'bearer': { file: 'server/transport/oauth/bearer', exportName: 'createBearerCheck' },
  'json-schema': { file: 'server/mcp/definitions/json-schema-arguments', exportName: 'jsonSchemaArguments' },
  // The skills extension's code, only in a build whose app has skills (server/mcp/skills/).
  'skills-runtime': { file: 'server/mcp/server/skills', exportName: 'serveSkills' },
  // The app's question page (its HTML, its form logic), where questions can be kept for it.
  'page': { file: 'server/page/serve', exportName: 'serveQuestionPage' },
} as const

/**
 * A wing's short name: `#mcp-elicitation/<name>`.
 *
 * @example
 * ```ts
 * const wing: WingName = 'json-schema'
 * ```
 */
export type WingName = keyof typeof WINGS

/** What each module that is always there declares, by the runtime files its types name. */
const DECLARATIONS = {
  options: () => `  export const route: string\n  export const endpointKeys: Record<string, string>\n`,
  definitions: (runtime: RuntimePath) => `  const definitions: Record<string, import('${runtime('server/mcp/definitions/registry')}').McpDefinitions>\n  export default definitions\n`,
  // The app's OpenTelemetry API, or `undefined` when it has none (or `mcp.telemetry` is false).
  otel: (runtime: RuntimePath) => `  export const otel: import('${runtime('server/mcp/observing/tracing')}').McpOtelApi | undefined\n`,
  // Each endpoint's skills (server/mcp/skills/), by endpoint key: `{}` when the app has none.
  skills: (runtime: RuntimePath) => `  const skills: Record<string, import('${runtime('server/mcp/skills/skills')}').McpSkills>\n  export default skills\n`,
  views: (runtime: RuntimePath) => `  const views: import('${runtime('server/mcp/views/apps')}').McpView[]\n  export default views\n  export const viewTools: import('${runtime('server/mcp/views/view-tools')}').ViewToolEntry[]\n`,
} as const

/**
 * The short name of any of the module's virtual modules: `#mcp-elicitation/<name>`.
 *
 * @example
 * ```ts
 * const name: VirtualName = 'definitions'
 * ```
 */
export type VirtualName = keyof typeof DECLARATIONS | WingName

/** Every virtual module, in the order their declarations are written. */
const NAMES: VirtualName[] = [...Object.keys(DECLARATIONS) as (keyof typeof DECLARATIONS)[], ...Object.keys(WINGS) as WingName[]]

function isWing(name: VirtualName): name is WingName {
  return Object.hasOwn(WINGS, name)
}

/**
 * The id the runtime imports a virtual module by.
 *
 * @example
 * ```ts
 * virtualId('definitions') // '#mcp-elicitation/definitions'
 * ```
 */
export function virtualId(name: VirtualName): string {
  return `#mcp-elicitation/${name}`
}

/**
 * The `declare module` block of one virtual module, as the app's Nitro types (and the repository's
 * own `test/types/virtual.d.ts`) hold it.
 *
 * @example
 * ```ts
 * declareVirtualModule('tasks', file => `../../src/runtime/${file}`)
 * // "declare module '#mcp-elicitation/tasks' {\n  export const createTaskRuntime: typeof import('../../src/runtime/server/tasks/calls/runtime').createTaskRuntime | undefined\n}\n"
 * ```
 */
export function declareVirtualModule(name: VirtualName, runtime: RuntimePath): string {
  const body = isWing(name)
    ? `  export const ${WINGS[name].exportName}: typeof import('${runtime(WINGS[name].file)}').${WINGS[name].exportName} | undefined\n`
    : DECLARATIONS[name](runtime)
  return `declare module '${virtualId(name)}' {\n${body}}\n`
}

/**
 * Every virtual module's declaration, in one text.
 *
 * @example
 * ```ts
 * declareVirtualModules(file => `../../src/runtime/${file}`) // what test/types/virtual.d.ts declares
 * ```
 */
export function declareVirtualModules(runtime: RuntimePath): string {
  return NAMES.map(name => declareVirtualModule(name, runtime)).join('')
}

/**
 * What a module that may be left out is then: its one export, `undefined`, so the runtime that
 * imports it checks for the wing instead of failing to resolve it.
 *
 * @example
 * ```ts
 * standInFor('tasks') // 'export const createTaskRuntime = undefined\n'
 * standInFor('otel')  // 'export const otel = undefined\n'
 * ```
 */
export function standInFor(name: WingName | 'otel'): string {
  return `export const ${name === 'otel' ? 'otel' : WINGS[name].exportName} = undefined\n`
}

/**
 * Adds one virtual module to the server build: its contents, made on each Nitro build (so a dev
 * rebuild sees new files), and its type declaration for the app's server code.
 *
 * @example
 * ```ts
 * addVirtualModule('options', () => `export const route = "/mcp"\nexport const endpointKeys = {}\n`, runtime)
 * ```
 */
export function addVirtualModule(name: VirtualName, contents: () => string | Promise<string>, runtime: RuntimePath): void {
  addServerTemplate({ filename: virtualId(name), getContents: contents })
  addTypeTemplate({ filename: `types/mcp-elicitation-${name}.d.ts`, getContents: () => declareVirtualModule(name, runtime) }, { nitro: true })
}

/**
 * Adds the virtual module of a wing a build may leave out: a re-export of its runtime file when
 * `included()` says so at build time, else {@link standInFor} it; how a wing the preset rules out
 * stays out of the bundle.
 *
 * @example
 * ```ts
 * addWing('legacy', () => options.legacy !== false, runtime)
 * ```
 */
export function addWing(name: WingName, included: () => boolean | Promise<boolean>, runtime: RuntimePath): void {
  const { file, exportName } = WINGS[name]
  addVirtualModule(name, async () => await included() ? `export { ${exportName} } from ${JSON.stringify(runtime(file))}\n` : standInFor(name), runtime)
}
