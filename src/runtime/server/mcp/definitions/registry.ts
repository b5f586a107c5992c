import { UriTemplate } from '@modelcontextprotocol/server'
import type { ListResourceTemplatesResult, Prompt, Resource, Tool } from '@modelcontextprotocol/server'
import type { ArgumentsCheck, McpCompleter, McpHandlerContext, McpPromptArguments, McpPromptDefinition, McpResourceDefinition, McpToolDefinition, McpToolInput, McpToolOutput } from './definitions'
import { promptArguments } from './prompt-arguments'
import { toolArguments, toolOutput } from './tool-arguments'
import type { JsonSchemaArguments } from './json-schema-arguments'
import { headerParamsOf, type McpHeaderParam } from './header-params'
import { planResourceCache, planToolCache, type ResourceCachePlan, type ToolCachePlan } from '../caching/plan'
import { isGuarded } from './guards'
import { listedExecution } from '../../tasks/store/support'
import { viewToolMeta, viewResources, type McpToolView, type McpView } from '../views/apps'
import type { McpSkillServing } from '../skills/skills'

type ResourceTemplate = ListResourceTemplatesResult['resourceTemplates'][number]

/**
 * A definition with its generic types erased: the public definition's fields, but a handler
 * declared as a method, so that any `defineMcpTool(...)` result, whatever its argument types, is
 * assignable here (method parameters are compared bivariantly); the registry validates the
 * arguments before calling.
 *
 * @example
 * ```ts
 * const entry: DefinitionEntry<ErasedTool> = { file: 'server/mcp/tools/echo.ts', fallbackName: 'echo', definition: defineMcpTool({ handler: () => 'hi' }) }
 * ```
 */
export interface ErasedTool extends Omit<McpToolDefinition<McpToolInput, McpToolOutput | undefined>, 'handler'> {
  handler(args: Record<string, unknown>, context: McpHandlerContext): unknown
}
/**
 * A resource definition with its handler erased, as {@link ErasedTool}.
 *
 * @example
 * ```ts
 * const entry: DefinitionEntry<ErasedResource> = { file: 'server/mcp/resources/readme.ts', fallbackName: 'readme', definition: defineMcpResource({ uri: 'file:///readme', handler: () => '…' }) }
 * ```
 */
export interface ErasedResource extends Omit<McpResourceDefinition, 'handler'> {
  handler(uri: URL, variables: Record<string, string | string[]>, context: McpHandlerContext): unknown
}
/**
 * A prompt definition with its handler erased, as {@link ErasedTool}.
 *
 * @example
 * ```ts
 * const entry: DefinitionEntry<ErasedPrompt> = { file: 'server/mcp/prompts/greet.ts', fallbackName: 'greet', definition: defineMcpPrompt({ handler: () => 'Hello' }) }
 * ```
 */
export interface ErasedPrompt extends Omit<McpPromptDefinition<McpPromptArguments>, 'handler' | 'complete'> {
  complete?: Record<string, McpCompleter | undefined>
  handler(args: Record<string, unknown>, context: McpHandlerContext): unknown
}

/** One discovered file, as the generated definitions template lists it. */
export interface DefinitionEntry<D> {
  /** Path relative to its layer root, for error messages. */
  file: string
  /** The file name without extension: the name when the definition gives none. */
  fallbackName: string
  /** The folder under `tools/` the file sits in (`admin` for `tools/admin/ban.ts`): its group unless it sets one. */
  folder?: string
  /**
   * Set on the module's own tools for clients that lack a capability (elicitation, tasks): a
   * tool subset (`X-MCP-Tools`, an endpoint's `tools`) never leaves such a tool out.
   */
  companion?: true
  definition: D
}

/** The discovered definition files, as the generated template (`#mcp-elicitation/definitions`) exports them. */
export interface McpDefinitions {
  tools: DefinitionEntry<ErasedTool>[]
  resources: DefinitionEntry<ErasedResource>[]
  prompts: DefinitionEntry<ErasedPrompt>[]
  /** The app's MCP App views (`app/mcp/*.vue`), served as `ui://` resources on every endpoint. */
  views?: McpView[]
  /** The endpoint's skills (`server/mcp/skills/`), served as `skill://` resources and through the skills extension; absent without skills. */
  skills?: McpSkillServing
  /**
   * How a JSON Schema written by hand is listed and checked (`json-schema-arguments.ts`). Absent
   * where the build left the validator out (a Worker none of whose tools writes one): such a
   * schema then fails when the server starts, naming the tool.
   */
  jsonSchemaArguments?: JsonSchemaArguments
}

export interface RegisteredTool {
  name: string
  file: string
  definition: ErasedTool
  args: ArgumentsCheck
  /** Checks an object the handler returned, when the tool has an `outputSchema`. */
  output?: ArgumentsCheck
  /** The arguments 2026-07-28 clients mirror into `Mcp-Param-*` headers (`x-mcp-header`). */
  headerParams: McpHeaderParam[]
  /** How its results are served again, when it has a `cache`. */
  cache?: ToolCachePlan
  /** Its `group` (else its folder under `tools/`), as `X-MCP-Tools: group:<name>` chooses it. */
  group?: string
  tags: readonly string[]
  /** A module's companion tool, which no subset leaves out (`DefinitionEntry.companion`). */
  companion: boolean
  /**
   * The view it shows, and whether only that view may call it (`visibility: ['app']`): such a
   * tool goes with any subset that keeps a tool showing the same view, or the view would break.
   */
  view?: { name: string, appOnly: boolean }
}
/** A resource; `cache`: how its reads are served again, when it has one. */
export interface RegisteredResource { name: string, file: string, definition: ErasedResource, template?: UriTemplate, cache?: ResourceCachePlan }
export interface RegisteredPrompt { name: string, file: string, definition: ErasedPrompt, args: ArgumentsCheck }

/** Everything about the definitions that can be computed once per process. */
export interface McpRegistry {
  tools: Map<string, RegisteredTool>
  resources: Map<string, RegisteredResource>
  templates: RegisteredResource[]
  prompts: Map<string, RegisteredPrompt>
  /** Wire-ready list results, built once: listing 500 tools costs no conversion per request. */
  lists: { tools: Tool[], resources: Resource[], templates: ResourceTemplate[], prompts: Prompt[] }
  /** Whether any definition has a guard (`scopes`, `enabled`): only then are lists filtered per caller. */
  guarded: boolean
  /** Whether any tool may run as a task: only then are tasks advertised and served. */
  tasks: boolean
  /** The names of the app's MCP App views: only when there are any is the apps extension advertised. */
  views: ReadonlySet<string>
  /** The endpoint's skills: only when there are any is the skills extension advertised and served. */
  skills?: McpSkillServing
}

function nameOf<D extends { name?: string }>(entry: DefinitionEntry<D>): string {
  return entry.definition.name ?? entry.fallbackName
}

function indexByName<D extends { name?: string }>(kind: string, entries: DefinitionEntry<D>[]): Map<string, DefinitionEntry<D>> {
  const byName = new Map<string, DefinitionEntry<D>>()
  for (const entry of entries) {
    const name = nameOf(entry)
    const other = byName.get(name)
    // Layers were already resolved at build time, so a clash here is two files of one app.
    if (other) throw new Error(`[nuxt-mcp-elicitation] Two ${kind}s are named "${name}": ${other.file} and ${entry.file}. Rename one (set \`name\` or rename the file).`)
    byName.set(name, entry)
  }
  return byName
}

/**
 * A tool's `group` and `tags`, checked: each is what `X-MCP-Tools: group:<name>` / `tag:<name>`
 * can name, so not empty and without a comma (the header's separator) or surrounding spaces (the
 * header's entries are trimmed). Throws naming the tool, its file and the label.
 */
function checkedLabels(group: string | undefined, tags: readonly string[] | undefined, where: string): { group?: string, tags: readonly string[] } {
  for (const [field, label] of [...(group === undefined ? [] : [['group', group] as const]), ...(tags ?? []).map(tag => ['tags', tag] as const)]) {
    if (!isNameableLabel(label)) {
      throw new Error(`[nuxt-mcp-elicitation] ${where}: its ${field} ${JSON.stringify(label)} cannot be named in X-MCP-Tools (${field === 'group' ? 'group:<name>' : 'tag:<name>'}): use printable ASCII without commas or surrounding spaces, e.g. "read-only".`)
    }
  }
  return { ...(group !== undefined && { group }), tags: tags ?? [] }
}

/** Whether `X-MCP-Tools` can name `label` (`group:<label>`, `tag:<label>`): printable ASCII, no comma, no surrounding spaces. */
function isNameableLabel(label: unknown): label is string {
  return typeof label === 'string' && label !== '' && !label.includes(',') && label.trim() === label && /^[\x20-\x7E]+$/.test(label)
}

/** The view a tool shows, by name, and whether only the view may call the tool (no `'model'` in its `visibility`). */
function shownView(view: McpToolView): { name: string, appOnly: boolean } {
  if (typeof view === 'string') return { name: view, appOnly: false }
  return { name: view.name, appOnly: view.visibility !== undefined && !view.visibility.includes('model') }
}

function buildTools(entries: DefinitionEntry<ErasedTool>[], views: McpView[], jsonSchema: JsonSchemaArguments | undefined) {
  const tools = new Map<string, RegisteredTool>()
  const list: Tool[] = []
  for (const [name, { file, folder, companion, definition }] of indexByName('tool', entries)) {
    const { title, description, annotations, inputSchema, outputSchema, execution } = definition
    const where = `The tool "${name}" (${file})`
    const input = toolArguments(inputSchema, where, jsonSchema)
    const headerParams = headerParamsOf(input.listed, where)
    const output = outputSchema && toolOutput(outputSchema, where)
    const cache = definition.cache === undefined ? undefined : planToolCache(definition.cache, where)
    // A group the tool sets is checked (a bad one fails naming the tool); one its folder gives by
    // default is dropped when the header could not name it (`tools/réglages/`): an app that never
    // chose groups keeps serving.
    const { group, tags } = checkedLabels(definition.group ?? (isNameableLabel(folder) ? folder : undefined), definition.tags, where)
    // Listed as @nuxtjs/mcp-toolkit lists them (`_meta.group`, `_meta.tags`), so clients that read them keep working.
    const labels = { ...(group !== undefined && { group }), ...(tags.length > 0 && { tags: [...tags] }) }
    const own = definition.view === undefined ? definition._meta : { ...definition._meta, ...viewToolMeta(definition.view, views, where) }
    const meta = Object.keys(labels).length > 0 ? { ...own, ...labels } : own
    const view = definition.view === undefined ? undefined : shownView(definition.view)
    tools.set(name, { name, file, definition, args: input.check, output: output?.check, headerParams, ...(cache && { cache }), ...(group !== undefined && { group }), tags, companion: companion === true, ...(view && { view }) })
    list.push({
      name,
      ...(title && { title }),
      ...(description && { description }),
      inputSchema: input.listed,
      ...(output && { outputSchema: output.listed }),
      ...(annotations && { annotations }),
      ...(listedExecution(execution) && { execution: listedExecution(execution) }),
      ...(meta && { _meta: meta }),
    })
  }
  return { tools, list }
}

function buildResources(entries: DefinitionEntry<ErasedResource>[]) {
  const resources = new Map<string, RegisteredResource>()
  const templates: RegisteredResource[] = []
  const list: Resource[] = []
  const templateList: ResourceTemplate[] = []
  for (const [name, { file, definition }] of indexByName('resource', entries)) {
    const { uri, title, description, mimeType, _meta } = definition
    const meta = { name, ...(title && { title }), ...(description && { description }), ...(mimeType && { mimeType }), ...(_meta && { _meta }) }
    const cache = definition.cache === undefined ? undefined : planResourceCache(definition.cache, `The resource "${name}" (${file})`)
    if (UriTemplate.isTemplate(uri)) {
      templates.push({ name, file, definition, template: new UriTemplate(uri), ...(cache && { cache }) })
      templateList.push({ ...meta, uriTemplate: uri })
    }
    else {
      resources.set(uri, { name, file, definition, ...(cache && { cache }) })
      list.push({ ...meta, uri })
    }
  }
  return { resources, templates, list, templateList }
}

function buildPrompts(entries: DefinitionEntry<ErasedPrompt>[]) {
  const prompts = new Map<string, RegisteredPrompt>()
  const list: Prompt[] = []
  for (const [name, { file, definition }] of indexByName('prompt', entries)) {
    const { listed, check } = promptArguments(definition.arguments, `The prompt "${name}" (${file})`)
    prompts.set(name, { name, file, definition, args: check })
    list.push({
      name,
      ...(definition.title && { title: definition.title }),
      ...(definition.description && { description: definition.description }),
      ...(listed.length > 0 && { arguments: listed }),
    })
  }
  return { prompts, list }
}

/**
 * Builds the registry once from the discovered definition files.
 *
 * @example
 * ```ts
 * const registry = createMcpRegistry({ tools: [{ file: 'server/mcp/tools/echo.ts', fallbackName: 'echo', definition: echo }], resources: [], prompts: [] })
 * registry.lists.tools // [{ name: 'echo', inputSchema: { type: 'object', … } }]
 * ```
 */
export function createMcpRegistry(input: McpDefinitions): McpRegistry {
  const views = input.views ?? []
  const tools = buildTools(input.tools, views, input.jsonSchemaArguments)
  const resources = buildResources([...input.resources, ...viewResources(views)])
  const prompts = buildPrompts(input.prompts)
  const skills = input.skills
  skills?.register(resources.resources, resources.list)
  return {
    tools: tools.tools,
    resources: resources.resources,
    templates: resources.templates,
    prompts: prompts.prompts,
    lists: { tools: tools.list, resources: resources.list, templates: resources.templateList, prompts: prompts.list },
    guarded: hasGuardedDefinitions(input) || skills?.guarded === true,
    tasks: tools.list.some(tool => tool.execution && tool.execution.taskSupport !== 'forbidden'),
    views: new Set(views.map(view => view.name)),
    ...(skills && { skills }),
  }
}

/**
 * Whether any definition carries a guard (`scopes` or `enabled`): lists are then filtered per
 * caller, and the endpoint advertises `listChanged`.
 *
 * @example
 * ```ts
 * if (hasGuardedDefinitions(definitions)) console.info('lists depend on the caller')
 * ```
 */
export function hasGuardedDefinitions(definitions: McpDefinitions): boolean {
  return [...definitions.tools, ...definitions.resources, ...definitions.prompts].some(entry => isGuarded(entry.definition))
}

/**
 * The resource `uri` names: a fixed resource, or the first template that matches it, with the
 * template's variables.
 *
 * @example
 * ```ts
 * const found = findResource(registry, 'users://42/profile') // { resource, variables: { id: '42' } }
 * ```
 */
export function findResource(registry: McpRegistry, uri: string): { resource: RegisteredResource, variables: Record<string, string | string[]> } | undefined {
  const fixed = registry.resources.get(uri)
  if (fixed) return { resource: fixed, variables: {} }
  for (const resource of registry.templates) {
    const variables = resource.template?.match(uri)
    if (variables) return { resource, variables }
  }
  return undefined
}
