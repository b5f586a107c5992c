/**
 * The observing room (`mcp/observing/`): the `mcp:call` event of each finished call (this file),
 * OpenTelemetry spans (`tracing.ts`), the `mcp:server` hook (`server-hook.ts`) and `useMcpLogger()`
 * (`use-logger.ts`). Free when nobody listens. It must not know the registry, the server's
 * handlers or the transport: the handlers hand it a call to time.
 */
import { isInputRequiredResult, ProtocolError } from '@modelcontextprotocol/server'
import type { McpEra, McpRequestScope } from '../../common/context'
import type { McpQuestionEvent } from '../../elicitation/question-events'
import type { CallSpan, McpCallMethod, McpCallOutcome, McpCallTracer } from './tracing'

export type { McpCallMethod, McpCallOutcome } from './tracing'

/** The payload of the `mcp:call` hook: one per call, when it has finished. Never arguments or results. */
export interface McpCallEvent {
  method: McpCallMethod
  /** The tool's or prompt's name, or the resource's URI as requested. */
  name: string
  /** The route of the endpoint that served it (`/mcp`, `/mcp/admin`, …). */
  endpoint: string
  era: McpEra
  principal?: string
  /**
   * The legacy session, as a keyed hash of its id (32 hex characters, the spans' `mcp.session.id`):
   * never the id, which is an anonymous session's credential. Absent on modern requests.
   */
  sessionTag?: string
  /** Wall time from the request reaching the handler to its answer, in milliseconds. */
  durationMs: number
  outcome: McpCallOutcome
  /** The JSON-RPC error code of a `protocol-error`. */
  errorCode?: number
}

/**
 * Something that watches finished calls or questions (the app's `mcp:call` / `mcp:question`
 * hooks). `listening()` is asked first, so nothing is measured or built when nobody listens.
 */
export interface McpObserver<Event> {
  listening: () => boolean
  notify: (event: Event) => void
}

/** The observers an endpoint reports to. */
export interface McpObservers {
  call?: McpObserver<McpCallEvent>
  /** OpenTelemetry spans, when the app has `@opentelemetry/api`. */
  trace?: McpCallTracer
}

/** The request a call came in, as the SDK hands it to the handler. */
export interface ObservedRequest {
  id: string | number
  signal: AbortSignal
  /** `params._meta`: where a client puts its W3C trace context. */
  meta: unknown
  protocolVersion?: string
}

function outcomeOf(result: unknown, aborted: boolean): { outcome: McpCallOutcome } {
  if (aborted) return { outcome: 'cancelled' }
  if (isInputRequiredResult(result)) return { outcome: 'input-required' }
  const isError = typeof result === 'object' && result !== null && Reflect.get(result, 'isError') === true
  return { outcome: isError ? 'tool-error' : 'ok' }
}

/**
 * Runs a call's handler, tells the `mcp:call` observer how it ended and traces it, as set up;
 * only `run` when neither is (one check of cost). The handler's result or error passes through.
 *
 * @example
 * ```ts
 * return observeCall(deps.observe, caller(), 'tools/call', name, () => observedRequest(server, ctx, meta), () => callTool())
 * ```
 */
export function observeCall<R>(observers: McpObservers | undefined, scope: McpRequestScope | undefined, method: McpCallMethod, name: string, readRequest: () => ObservedRequest, run: () => Promise<R>): Promise<R> {
  const observer = observers?.call?.listening() ? observers.call : undefined
  // Not async itself: unobserved, the handler's own promise is returned, with no extra tick.
  if ((!observer && !observers?.trace) || !scope) return run()
  const request = readRequest()
  const span = observers?.trace?.start({ method, name, scope, requestId: request.id, meta: request.meta, protocolVersion: request.protocolVersion })
  return timeCall(observer, span, scope, method, name, request.signal, run)
}

async function timeCall<R>(observer: McpObserver<McpCallEvent> | undefined, span: CallSpan | undefined, scope: McpRequestScope, method: McpCallMethod, name: string, signal: AbortSignal, run: () => Promise<R>): Promise<R> {
  const started = performance.now()
  const base = {
    method,
    name,
    endpoint: scope.route,
    era: scope.era,
    ...(scope.principal !== undefined && { principal: scope.principal }),
    ...(scope.sessionTag !== undefined && { sessionTag: scope.sessionTag }),
  }
  const aborted = () => signal.aborted || scope.signal.aborted
  try {
    const result = await (span ? span.run(run) : run())
    const { outcome } = outcomeOf(result, aborted())
    span?.end(outcome)
    observer?.notify({ ...base, durationMs: performance.now() - started, outcome })
    return result
  }
  catch (error) {
    const code = error instanceof ProtocolError ? error.code : undefined
    const outcome: McpCallOutcome = aborted() ? 'cancelled' : 'protocol-error'
    span?.end(outcome, { ...(outcome === 'protocol-error' && code !== undefined && { code }), message: error instanceof Error ? error.message : String(error) })
    observer?.notify({ ...base, durationMs: performance.now() - started, outcome, ...(outcome === 'protocol-error' && code !== undefined && { errorCode: code }) })
    throw error
  }
}

declare module 'nitropack/types' {
  interface NitroRuntimeHooks {
    /**
     * A tool call, resource read or prompt get has finished, in either era: what, where, who,
     * how long and how it ended. Called after the answer is decided, never awaited by it.
     */
    'mcp:call': (event: McpCallEvent) => void | Promise<void>
    /**
     * A question to the person (or the client) moved: asked, answered, declined, cancelled,
     * refused as invalid, timed out. Field names only, never the values answered, unless the app
     * opted in with `mcp.observe.answers` (on in `nuxi dev` with DevTools).
     */
    'mcp:question': (event: McpQuestionEvent) => void | Promise<void>
  }
}
