import { isInputRequiredResult, ProtocolError } from '@modelcontextprotocol/server'
import type { McpEra, McpRequestScope } from '../common/context'
import type { McpQuestionEvent } from '../elicitation/question-events'

/** The requests that run a definition's handler. */
export type McpCallMethod = 'tools/call' | 'resources/read' | 'prompts/get'

/**
 * How a call ended:
 * - `ok`: a result;
 * - `tool-error`: a tool result with `isError: true` (bad arguments, the handler threw, a refusal);
 * - `input-required`: a modern round ended asking the client (the call goes on in its retry);
 * - `protocol-error`: a JSON-RPC error (`errorCode` says which: unknown name, -32042, …);
 * - `cancelled`: the client cancelled or went away before the answer.
 */
export type McpCallOutcome = 'ok' | 'tool-error' | 'input-required' | 'protocol-error' | 'cancelled'

/** The payload of the `mcp:call` hook: one per call, when it has finished. Never arguments or results. */
export interface McpCallEvent {
  method: McpCallMethod
  /** The tool's or prompt's name, or the resource's URI as requested. */
  name: string
  /** The route of the endpoint that served it (`/mcp`, `/mcp/admin`, …). */
  endpoint: string
  era: McpEra
  principal?: string
  /** The legacy session; absent on modern requests. */
  sessionId?: string
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
}

function outcomeOf(result: unknown, aborted: boolean): { outcome: McpCallOutcome } {
  if (aborted) return { outcome: 'cancelled' }
  if (isInputRequiredResult(result)) return { outcome: 'input-required' }
  const isError = typeof result === 'object' && result !== null && Reflect.get(result, 'isError') === true
  return { outcome: isError ? 'tool-error' : 'ok' }
}

/**
 * Runs a call's handler and tells `observer` how it ended; only `run` when nobody listens (one
 * function call of cost). The handler's result or error passes through untouched.
 *
 * @example
 * ```ts
 * return observeCall(deps.observe?.call, scope, 'tools/call', name, signal, () => callTool(request))
 * ```
 */
export function observeCall<R>(observer: McpObserver<McpCallEvent> | undefined, scope: McpRequestScope | undefined, method: McpCallMethod, name: string, signal: AbortSignal, run: () => Promise<R>): Promise<R> {
  // Not async itself: unobserved, the handler's own promise is returned, with no extra tick.
  if (!observer?.listening() || !scope) return run()
  return timeCall(observer, scope, method, name, signal, run)
}

async function timeCall<R>(observer: McpObserver<McpCallEvent>, scope: McpRequestScope, method: McpCallMethod, name: string, signal: AbortSignal, run: () => Promise<R>): Promise<R> {
  const started = performance.now()
  const base = {
    method,
    name,
    endpoint: scope.route,
    era: scope.era,
    ...(scope.principal !== undefined && { principal: scope.principal }),
    ...(scope.sessionId !== undefined && { sessionId: scope.sessionId }),
  }
  const aborted = () => signal.aborted || scope.signal.aborted
  try {
    const result = await run()
    observer.notify({ ...base, durationMs: performance.now() - started, ...outcomeOf(result, aborted()) })
    return result
  }
  catch (error) {
    const code = error instanceof ProtocolError ? error.code : undefined
    observer.notify({ ...base, durationMs: performance.now() - started, ...(aborted() ? { outcome: 'cancelled' } : { outcome: 'protocol-error', ...(code !== undefined && { errorCode: code }) }) })
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
     * refused as invalid, timed out. Field names only, never the values answered.
     */
    'mcp:question': (event: McpQuestionEvent) => void | Promise<void>
  }
}
