import { isCallToolResult, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'
import type { InputRequiredResult, Server, ServerContext, Tool } from '@modelcontextprotocol/server'
import { findResource, type McpRegistry, type RegisteredTool } from '../definitions/registry'
import type { ElicitationRun } from '../../elicitation/run'
import type { TaskCall } from '../../tasks/calls/calls'
import { executeHandler } from '../../elicitation/engine'
import type { HandlerOutcome } from '../../elicitation/engine'
import { createRun, handlerContext } from '../definitions/handler-context'
import type { RunDeps } from '../definitions/handler-context'
import { installCompletionHandler } from './completions'
import { allowedOf, hiddenFrom } from '../definitions/guards'
import { getMcpScope, type McpEra, type McpRequestScope, type McpToolSubset } from '../../common/context'
import { outsideSubset } from '../definitions/tool-subset'
import { toolError, toPromptResult, toResourceResult, toToolResult } from '../definitions/results'
import { observeCall, type McpObservers, type ObservedRequest } from '../observing/observe-calls'
import { cacheHint, cacheUseOf, keepCached, keepResource, readCached, readCachedResource, resourceCacheSlot, toolCacheSlot } from '../caching/plan'
import type { McpStateStore } from '../../common/store/store'
import type { McpServerEvent } from '../observing/server-hook'
import type { McpHook } from '../../common/hooks'
import type { McpCacheStore } from '../caching/store'
import type { McpTaskRuntime } from '../../tasks/calls/runtime'
import { inlineModeOf } from '../../tasks/store/support'
import { pageFlowOf } from '../../elicitation/page/flow'

/** Everything the request handlers need besides the request. */
export interface HandlerDeps extends RunDeps {
  registry: McpRegistry
  /** The resolved HMAC key of modern `requestState`. */
  secret: string
  /** The endpoint's route: what its list changes, subscriptions and session values are kept under. */
  route: string
  /** Who hears about finished calls (the app's `mcp:call` hooks). */
  observe?: McpObservers
  /** The app's `mcp:server` hooks, which may add handlers of their own to each server built. */
  serverHook?: McpHook<McpServerEvent>
  /** Where tools with a `cache` keep their results (apart from `store`, so results never crowd out `once()` records). */
  cacheStore?: McpCacheStore
  /** The endpoint's tasks; absent when no tool may run as one, or where tasks cannot run (Workers). */
  tasks?: McpTaskRuntime
  /** The tools the endpoint serves when its config narrows them (`mcp.tools`); absent: all. */
  toolSubset?: McpToolSubset
  /** Where the app's page for questions a client cannot show is linked; absent without `publicUrl`, or with the page off. */
  page?: { linkBase: string, endpointKey: string, identifiesPeople: () => boolean }
}

/** The modern round's questions of a resource or prompt: only a tool's run has a page. */
function roundOf(outcome: Exclude<HandlerOutcome<unknown>, { kind: 'done' }>): InputRequiredResult {
  if (outcome.kind === 'input-required') return outcome.result
  throw new ProtocolError(ProtocolErrorCode.InternalError, 'A resource or prompt handler ended on a question for the app\'s page, which only tools use.')
}

function unwrap<T, R>(outcome: HandlerOutcome<T>, convert: (value: T) => R): R | InputRequiredResult {
  return outcome.kind === 'done' ? convert(outcome.value) : roundOf(outcome)
}

/** What observers and spans read of a request. */
function observedRequest(server: Server, ctx: ServerContext, meta: unknown): ObservedRequest {
  const version = server.getNegotiatedProtocolVersion()
  return { id: ctx.mcpReq.id, signal: ctx.mcpReq.signal, meta, ...(version !== undefined && { protocolVersion: version }) }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * How a task calls `tool` and reads its value. Built here, outside the request's handler: closures
 * made in there keep the request's context (its transport and per-request server) for as long as
 * the task runs; these keep only the tool, its arguments and the run.
 */
function invocationOf(tool: RegisteredTool, data: Record<string, unknown>, run: ElicitationRun): Pick<TaskCall, 'invoke' | 'finish'> {
  return { invoke: () => tool.definition.handler(data, handlerContext(run)), finish: value => toToolResult(value, tool.output) }
}

/**
 * Registers the module's request handlers on a low-level SDK `Server`. Lists are served from the
 * registry's precomputed arrays, so a server instance costs the same with 5 tools or 500.
 *
 * @example
 * ```ts
 * const server = new Server({ name, version }, { capabilities })
 * installMcpHandlers(server, { registry, config, secret })
 * ```
 */
export function installMcpHandlers(server: Server, deps: HandlerDeps): void {
  const { registry } = deps
  const caller = () => deps.scope ?? getMcpScope()
  const hidden = hiddenFrom(caller)
  // The request's X-MCP-Tools subset (already within the endpoint's), else the endpoint's own.
  const subsetOf = () => caller()?.toolSubset ?? deps.toolSubset
  if (registry.guarded) installGuardedLists(server, registry, caller, subsetOf)
  else {
    server.setRequestHandler('tools/list', () => toolList(registry.lists.tools, subsetOf(), caller()?.era))
    server.setRequestHandler('resources/list', () => ({ resources: registry.lists.resources }))
    server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: registry.lists.templates }))
    server.setRequestHandler('prompts/list', () => ({ prompts: registry.lists.prompts }))
  }
  installCompletionHandler(server, registry, hidden)

  server.setRequestHandler('tools/call', (request, ctx) => observeCall(deps.observe, caller(), 'tools/call', request.params.name, () => observedRequest(server, ctx, request.params._meta), async () => {
    const tool = registry.tools.get(request.params.name)
    if (await hidden(tool) || !tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool "${request.params.name}". Call tools/list for the available names.`)
    // After the guards: a tool a guard hides stays unknown, whatever the subset says.
    const subset = subsetOf()
    if (subset && !subset.names.has(tool.name)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, outsideSubset(tool.name, subset))
    const { execution } = tool.definition
    const mode = !registry.tasks ? { task: false as const } : deps.tasks ? deps.tasks.modeOf(server, caller()?.era ?? 'modern', tool.name, execution, request.params) : inlineModeOf(tool.name, execution)
    const parsed = await tool.args(request.params.arguments ?? {})
    if (!parsed.ok) return toolError(`Invalid arguments for tool "${tool.name}": ${parsed.problem}`)
    if (mode.task && deps.tasks) {
      const run = createRun(server, ctx, deps, { method: 'tools/call', name: tool.name })
      return deps.tasks.call({ server, run, secret: deps.secret, tool: { name: tool.name, execution }, arguments: request.params.arguments ?? {}, ...(mode.ttlMs !== undefined && { ttlMs: mode.ttlMs }), ...invocationOf(tool, parsed.data, run) })
    }
    // A client without tasks: past mcp.tasks.detachAfterMs the call answers "it goes on" (a job).
    const job = !mode.task && deps.tasks ? deps.tasks.jobOf(server, caller(), tool.name, execution, request.params.arguments ?? {}) : undefined
    if (job !== undefined && deps.tasks) {
      const run = createRun(server, ctx, deps, { method: 'tools/call', name: tool.name })
      // Before the limit, a question the client cannot show goes to the app's page, as inline.
      if (deps.page) run.page = pageFlowOf(run, { tool: tool.name, arguments: request.params.arguments ?? {}, outputSchema: tool.output !== undefined, ...deps.page })
      return deps.tasks.job({ server, ctx, deps, run, secret: deps.secret, binding: job, tool: { name: tool.name, execution, typed: tool.output !== undefined }, arguments: request.params.arguments ?? {}, ...invocationOf(tool, parsed.data, run) })
    }
    // Keyed on the parsed arguments, or on those sent when the parsed ones are not plain JSON.
    const cached = cacheUseOf(deps.cacheStore, tool.cache, plan => toolCacheSlot(plan, deps.route, tool.name, caller(), parsed.data, request.params.arguments ?? {}))
    if (cached) {
      const hit = await readCached(cached)
      if (isCallToolResult(hit)) return hit
    }
    const run = createRun(server, ctx, deps, { method: 'tools/call', name: tool.name })
    if (deps.page) run.page = pageFlowOf(run, { tool: tool.name, arguments: request.params.arguments ?? {}, outputSchema: tool.output !== undefined, ...deps.page })
    try {
      const outcome = await executeHandler(run, deps.secret, () => tool.definition.handler(parsed.data, handlerContext(run)))
      if (outcome.kind !== 'done') return outcome.result
      const result = await toToolResult(outcome.value, tool.output)
      // Only a plain success is kept: never an error, never a call that asked the person anything.
      if (cached && run.calls === 0 && !result.isError) await keepCached(cached, result)
      return result
    }
    catch (error) {
      // Protocol errors (e.g. the URL-required -32042, malformed inputResponses) keep their wire form.
      if (error instanceof ProtocolError) throw error
      return toolError(errorMessage(error))
    }
  }))

  server.setRequestHandler('resources/read', (request, ctx) => observeCall(deps.observe, caller(), 'resources/read', request.params.uri, () => observedRequest(server, ctx, request.params._meta), async () => {
    const found = findResource(registry, request.params.uri)
    if (await hidden(found?.resource) || !found) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource not found: "${request.params.uri}". Call resources/list or resources/templates/list for what exists.`, { uri: request.params.uri })
    const { resource, variables } = found
    const uri = new URL(request.params.uri)
    const { cache } = resource
    const cached = cacheUseOf(deps.cacheStore, cache, plan => resourceCacheSlot(plan, deps.route, resource.name, caller(), uri, variables))
    if (cache && cached) {
      const hit = await readCachedResource(cached)
      if (hit) return { ...hit.result, ...cacheHint(cache, hit.remainingMs) }
    }
    const run = createRun(server, ctx, deps, { method: 'resources/read', name: resource.name })
    const outcome = await executeHandler(run, deps.secret, () => resource.definition.handler(uri, variables, handlerContext(run)))
    if (outcome.kind !== 'done') return roundOf(outcome)
    const result = toResourceResult(outcome.value, request.params.uri, resource.definition.mimeType)
    if (!cache) return result
    // As for tools: a read that asked the person anything is theirs, for that moment, and not kept.
    if (cached && run.calls === 0) await keepResource(cached, result)
    return { ...result, ...cacheHint(cache, cache.ttlMs) }
  }))

  server.setRequestHandler('prompts/get', (request, ctx) => observeCall(deps.observe, caller(), 'prompts/get', request.params.name, () => observedRequest(server, ctx, request.params._meta), async () => {
    const prompt = registry.prompts.get(request.params.name)
    if (await hidden(prompt) || !prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt "${request.params.name}". Call prompts/list for the available names.`)
    const parsed = await prompt.args(request.params.arguments ?? {})
    if (!parsed.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid arguments for prompt "${prompt.name}": ${parsed.problem}`)
    const run = createRun(server, ctx, deps, { method: 'prompts/get', name: prompt.name })
    const outcome = await executeHandler(run, deps.secret, () => prompt.definition.handler(parsed.data, handlerContext(run)))
    return unwrap(outcome, value => toPromptResult(value, prompt.definition.description))
  }))
}

/**
 * A `tools/list` result: `tools`, narrowed to `subset` when one applies. A narrowed list says
 * `ttlMs: 0` and `cacheScope: 'private'` on 2026-07-28 (set here, not left to the SDK's
 * defaults): the subset comes from a header no cache key holds, so no cache may keep one
 * subset's list to answer another request. (2025-11-25 has no such fields, and the SDK would
 * pass them on: a legacy list gets none.)
 *
 * @example
 * ```ts
 * toolList(registry.lists.tools, { names: new Set(['search']), source: 'mcp.tools' }, 'modern') // { tools: [search], ttlMs: 0, cacheScope: 'private' }
 * ```
 */
export function toolList(tools: Tool[], subset: McpToolSubset | undefined, era: McpEra | undefined, narrowed = subset !== undefined): { tools: Tool[], ttlMs?: number, cacheScope?: 'private' } {
  const listed = subset ? tools.filter(tool => subset.names.has(tool.name)) : tools
  return narrowed && era === 'modern' ? { tools: listed, ttlMs: 0, cacheScope: 'private' } : { tools: listed }
}

/**
 * The list handlers of an endpoint where some definition has a guard: each list holds what the
 * caller may use, decided per request. (Without guards the precomputed lists are sent as they
 * are.) On 2026-07-28 the lists keep the SDK's default `cacheScope: 'private'`: they depend on
 * who asks, so no cache may share them across callers.
 *
 * @example
 * ```ts
 * if (registry.guarded) installGuardedLists(server, registry, () => getMcpScope())
 * ```
 */
function installGuardedLists(server: Server, registry: McpRegistry, caller: () => McpRequestScope | undefined, subsetOf: () => McpToolSubset | undefined): void {
  const { lists } = registry
  server.setRequestHandler('tools/list', async () => {
    const subset = subsetOf()
    // Guards run only for the tools the subset keeps.
    const kept = subset ? lists.tools.filter(tool => subset.names.has(tool.name)) : lists.tools
    const scope = caller()
    return toolList(await allowedOf(kept, item => registry.tools.get(item.name)?.definition, scope), undefined, scope?.era, subset !== undefined)
  })
  server.setRequestHandler('resources/list', async () => ({ resources: await allowedOf(lists.resources, item => registry.resources.get(item.uri)?.definition, caller()) }))
  server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: await allowedOf(lists.templates, (_item, index) => registry.templates[index]?.definition, caller()) }))
  server.setRequestHandler('prompts/list', async () => ({ prompts: await allowedOf(lists.prompts, item => registry.prompts.get(item.name)?.definition, caller()) }))
}
