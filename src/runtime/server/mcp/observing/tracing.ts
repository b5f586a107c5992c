import type * as OtelApi from '@opentelemetry/api'
import type { Attributes, Context, Link, Span } from '@opentelemetry/api'
import { getMcpFrame, runInMcpFrame } from '../../common/context'
import type { McpRequestScope } from '../../common/context'
import { isRecord } from '../../common/is-record'
import { goesOut, onElicitationEvent } from '../../elicitation/events'
import { McpElicitationError } from '../../elicitation/error'

/**
 * OpenTelemetry spans for MCP requests, following the OpenTelemetry semantic conventions for MCP
 * (server side): one SERVER span per tools/call, resources/read and prompts/get, named
 * `{mcp.method.name} {target}`, parented by the W3C trace context the client put in
 * `params._meta` (else the ambient span, e.g. the HTTP server's), active while the handler runs,
 * so the app's own instrumented calls nest under it; and one CLIENT span per question the server
 * asks (`elicitation/create`, `sampling/createMessage`, `roots/list`): a legacy wait until the
 * answer, or a modern round's `input_required` entry. `@opentelemetry/api` is an optional peer:
 * the module passes its API in only when the app has it installed.
 */

/** The part of `@opentelemetry/api` the module uses. */
export type McpOtelApi = Pick<typeof OtelApi, 'trace' | 'context' | 'propagation' | 'SpanKind' | 'SpanStatusCode'>

/** What a call's span is started with. */
export interface TracedCall {
  method: McpCallMethod
  name: string
  scope: McpRequestScope
  requestId: string | number
  /** The request's `params._meta`, where a client puts `traceparent` / `tracestate`. */
  meta: unknown
  protocolVersion?: string
}

/** A call's span: run the handler inside it, then end it with the call's outcome. */
export interface CallSpan {
  run: <T>(fn: () => T) => T
  end: (outcome: McpCallOutcome, error?: { code?: number, message: string }) => void
}

/** Starts call spans; the endpoint holds one when the app has OpenTelemetry. */
export interface McpCallTracer {
  start: (call: TracedCall) => CallSpan
}

declare module '../../common/context' {
  interface McpFrameSlots {
    /** The OpenTelemetry context of the call being served: questions' spans are its children. */
    otelContext: Context
  }
}

const TRACER_NAME = 'nuxt-mcp-elicitation'
const UNTRACED: CallSpan = { run: fn => fn(), end: () => {} }
const metaGetter = {
  keys: (carrier: unknown) => (isRecord(carrier) ? Object.keys(carrier) : []),
  get: (carrier: unknown, key: string) => {
    const value = isRecord(carrier) ? carrier[key] : undefined
    return typeof value === 'string' ? value : undefined
  },
}

function callAttributes(call: TracedCall): Attributes {
  const { method, name, scope } = call
  return {
    'mcp.method.name': method,
    ...(method === 'tools/call' && { 'gen_ai.tool.name': name, 'gen_ai.operation.name': 'execute_tool' }),
    ...(method === 'prompts/get' && { 'gen_ai.prompt.name': name }),
    ...(method === 'resources/read' && { 'mcp.resource.uri': name }),
    'jsonrpc.request.id': String(call.requestId),
    // The session's tag, never its id: a trace backend's readers could take an anonymous session over.
    ...(scope.sessionTag !== undefined && { 'mcp.session.id': scope.sessionTag }),
    ...(call.protocolVersion !== undefined && { 'mcp.protocol.version': call.protocolVersion }),
    'network.protocol.name': 'http',
    'network.transport': 'tcp',
  }
}

/**
 * The call tracer over the app's OpenTelemetry API.
 *
 * @example
 * ```ts
 * import * as api from '@opentelemetry/api'
 * const tracer = createCallTracer(api)
 * const span = tracer.start({ method: 'tools/call', name: 'echo', scope, requestId: 1, meta: params._meta })
 * const result = await span.run(() => handler())
 * span.end('ok')
 * ```
 */
export function createCallTracer(otel: McpOtelApi): McpCallTracer {
  const tracer = otel.trace.getTracer(TRACER_NAME)
  return {
    start(call) {
      const ambient = otel.context.active()
      const remote = otel.propagation.extract(ambient, call.meta, metaGetter)
      const remoteSpan = otel.trace.getSpanContext(remote)
      const ambientSpan = otel.trace.getSpanContext(ambient)
      // The client's context is the parent; the transport's (ambient) span is linked (semconv).
      const fromClient = remoteSpan !== undefined && remoteSpan !== ambientSpan
      const links: Link[] = fromClient && ambientSpan ? [{ context: ambientSpan }] : []
      const target = call.method === 'resources/read' ? '' : ` ${call.name}`
      const span: Span = tracer.startSpan(`${call.method}${target}`, { kind: otel.SpanKind.SERVER, attributes: callAttributes(call), links }, remote)
      // No provider registered (or sampled out): nothing records, so the handler runs as it is.
      if (!span.isRecording()) return UNTRACED
      const active = otel.trace.setSpan(remote, span)
      return {
        run: fn => otel.context.with(active, () => runInMcpFrame({ otelContext: active }, fn)),
        end(outcome, error) {
          span.setAttribute('nuxt_mcp.outcome', outcome)
          if (outcome === 'tool-error') span.setAttribute('error.type', 'tool_error')
          if (outcome === 'cancelled') span.setAttribute('error.type', 'cancelled')
          if (error?.code !== undefined) span.setAttributes({ 'error.type': String(error.code), 'rpc.response.status_code': String(error.code) })
          if (outcome === 'tool-error' || outcome === 'protocol-error' || outcome === 'cancelled') {
            span.setStatus({ code: otel.SpanStatusCode.ERROR, ...(error && { message: error.message }) })
          }
          span.end()
        },
      }
    },
  }
}

/**
 * One CLIENT span per question the server asks, child of the call's span: a legacy wait lasts
 * until the answer (or the timeout, `error.type` the `McpElicitationError` code); a modern
 * question ends with the round that carries it in `input_required`. Returns the function that
 * stops it.
 *
 * @example
 * ```ts
 * const stop = traceQuestions(api)
 * ```
 */
export function traceQuestions(otel: McpOtelApi): () => void {
  const tracer = otel.trace.getTracer(TRACER_NAME)
  return onElicitationEvent((event) => {
    if (event.type !== 'asked') return
    const parent = getMcpFrame()?.otelContext
    if (!parent) return
    if (!goesOut(event)) return
    const modern = event.run.modern
    const { scope } = event.run
    const span = tracer.startSpan(event.question.method, {
      kind: otel.SpanKind.CLIENT,
      attributes: {
        'mcp.method.name': event.question.method,
        ...(scope.sessionTag !== undefined && { 'mcp.session.id': scope.sessionTag }),
        'nuxt_mcp.question.key': event.key,
        ...(modern && { 'nuxt_mcp.outcome': 'input-required' }),
      },
    }, parent)
    if (modern) return span.end()
    event.outcome.then(() => span.end(), (error: unknown) => {
      const code = error instanceof McpElicitationError ? error.code : 'error'
      span.setAttribute('error.type', code)
      span.setStatus({ code: otel.SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) })
      span.end()
    })
  })
}

/** The requests that run a definition's handler: what `mcp:call` and the call spans are about. */
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
