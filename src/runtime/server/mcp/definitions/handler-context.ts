import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'
import type { AuthInfo, ClientCapabilities, LoggingLevel, Server, ServerContext } from '@modelcontextprotocol/server'
import type { H3Event } from 'h3'
import { getMcpScope } from '../../common/context'
import type { McpEra, McpRequestScope } from '../../common/context'
import type { McpHandlerContext } from './definitions'
import type { McpServerConfig } from '../../common/config'
import type { McpStateStore } from '../../common/store/store'
import type { ElicitationRun } from '../../elicitation/run'
import { elicitationOf } from '../../elicitation/use-elicitation'
import type { McpElicitation } from '../../elicitation/use-elicitation'
import type { ModernFlowState } from '../../elicitation/state'
import { formAppResolver } from '../views/apps'
import type { McpRegistry } from './registry'

function scopeOrThrow(known: McpRequestScope | undefined) {
  const scope = known ?? getMcpScope()
  if (!scope) throw new ProtocolError(ProtocolErrorCode.InternalError, 'MCP request served outside the module endpoint')
  return scope
}

/** What a run needs besides the request: the module's config and the replay guard's store. */
export interface RunDeps {
  config: McpServerConfig
  store: McpStateStore
  /**
   * The request being served, when the server was built for one request (modern): passed
   * explicitly, so it does not depend on the request context following every `await`.
   */
  scope?: McpRequestScope
  /** The app's MCP App views, for `form({ app })`. */
  registry?: Pick<McpRegistry, 'views'>
}

/** The elicitation run of one handler execution: era, capabilities, modern state. */
export function createRun(server: Server, ctx: ServerContext, deps: RunDeps, call?: ElicitationRun['call']): ElicitationRun {
  const scope = scopeOrThrow(deps.scope)
  // Legacy: what the session declared at initialize. Modern: the SDK backfills this per request
  // from the request's own envelope (capabilities are never inferred across requests).
  const capabilities: ClientCapabilities | undefined = server.getClientCapabilities()
  const views = deps.registry?.views
  const formApp = views && views.size > 0 ? formAppResolver(views, capabilities) : undefined
  const base = { scope, ctx, config: deps.config, store: deps.store, calls: 0, ...(call && { call }), ...(formApp && { formApp }) }
  // The revision a legacy session negotiated at initialize (the SDK keeps it per session).
  if (scope.era === 'legacy') return { ...base, server, capabilities, protocolVersion: server.getNegotiatedProtocolVersion() }
  const state = ctx.mcpReq.requestState<ModernFlowState>()
  return {
    ...base,
    capabilities,
    modern: {
      state: typeof state === 'object' ? state : undefined,
      responses: ctx.mcpReq.inputResponses ?? {},
      answers: { ...(typeof state === 'object' ? state.answers : {}) },
      steps: { ...(typeof state === 'object' ? state.steps : {}) },
      pending: new Map(),
      onPending: () => {},
    },
  }
}

/**
 * The context handed to a handler as its second argument.
 *
 * @example
 * ```ts
 * const result = await tool.definition.handler(args, handlerContext(run))
 * ```
 */
export function handlerContext(run: ElicitationRun): McpHandlerContext {
  return new HandlerContext(run)
}

/**
 * A class whose `elicit` and `signal` getters sit on the prototype, not an object literal with
 * getters: V8 builds a literal's getters as accessor pairs in the old generation, which keep the
 * request alive through every young-generation GC until the next full one (transport/streams/sse.ts
 * says more). `log` and `progress` are the instance's own functions, so a handler may destructure
 * them; `elicit` and `signal` are read from the context (or destructured: that reads them too).
 */
class HandlerContext implements McpHandlerContext {
  readonly event: H3Event
  readonly era: McpEra
  // `declare`: an own property only when known, as before.
  declare principal?: string
  declare authInfo?: AuthInfo
  declare sessionId?: string
  // `run.ctx` is read when used, never kept here: a task replaces it with a detached one
  // (detached-context.ts) so the request's server can go once the request has ended.
  readonly #run: ElicitationRun
  #signal: AbortSignal | undefined
  #elicit: McpElicitation | undefined

  constructor(run: ElicitationRun) {
    const { scope } = run
    this.#run = run
    this.event = scope.event
    this.era = scope.era
    if (scope.principal !== undefined) this.principal = scope.principal
    if (scope.authInfo !== undefined) this.authInfo = scope.authInfo
    if (scope.sessionId !== undefined) this.sessionId = scope.sessionId
  }

  get elicit(): McpElicitation {
    return this.#elicit ??= elicitationOf(this.#run)
  }

  /**
   * Built on first read: `AbortSignal.any` costs more than a plain tool call's own work. A
   * task's handler outlives its request: from the moment it is parked, its task's signal.
   */
  get signal(): AbortSignal {
    const run = this.#run
    if (run.parked) return run.parked.signal
    return this.#signal ??= AbortSignal.any([run.ctx.mcpReq.signal, run.scope.signal])
  }

  readonly log = (level: LoggingLevel, data: unknown, logger?: string): Promise<void> => {
    const run = this.#run
    return run.parked ? run.parked.log(level, data, logger) : run.ctx.mcpReq.log(level, data, logger)
  }

  readonly progress = async (progress: number, total?: number, message?: string): Promise<void> => {
    const run = this.#run
    if (run.parked) return run.parked.progress(progress, total, message)
    const { mcpReq } = run.ctx
    const progressToken = mcpReq._meta?.progressToken
    // Without a token the client did not ask for progress: nothing to send.
    if (progressToken === undefined) return
    await mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, ...(total !== undefined && { total }), ...(message !== undefined && { message }) } })
  }
}
