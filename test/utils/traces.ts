import { randomBytes } from 'node:crypto'
import { until } from './until'

/** A finished span as the fixtures' `/spans?trace=<id>` route lists it. */
export interface RecordedSpan {
  name: string
  kind: number
  spanId: string
  parentSpanId?: string
  attributes: Record<string, unknown>
  status: { code: number, message?: string }
  links?: string[]
  /** The instance that made it (the shared-state fixture's route says). */
  pid?: number
}

/** OpenTelemetry's SpanKind and SpanStatusCode values the tests compare with. */
export const SERVER = 1
export const CLIENT = 2
export const ERROR = 2

/**
 * What telemetry carries for a legacy session: a keyed hash of its id (32 hex characters), never
 * the id itself, which is the only credential of an anonymous session.
 *
 * @example
 * ```ts
 * expect(span.attributes['mcp.session.id']).toMatch(SESSION_TAG)
 * ```
 */
export const SESSION_TAG = /^[0-9a-f]{32}$/

/**
 * A new trace as an MCP client starts one: its ids and the `params._meta` that carries it.
 *
 * @example
 * ```ts
 * const { traceId, meta } = newTrace()
 * await client.callTool({ name: 'echo', arguments: {}, _meta: meta })
 * ```
 */
export function newTrace(): { traceId: string, clientSpanId: string, meta: { traceparent: string } } {
  const traceId = randomBytes(16).toString('hex')
  const clientSpanId = randomBytes(8).toString('hex')
  return { traceId, clientSpanId, meta: { traceparent: `00-${traceId}-${clientSpanId}-01` } }
}

/**
 * The spans of one trace from every server at `origins`, once there are `count` of them.
 *
 * @example
 * ```ts
 * const spans = await spansOf([app.url], traceId, 2)
 * ```
 */
export async function spansOf(origins: URL[], traceId: string, count: number): Promise<RecordedSpan[]> {
  let spans: RecordedSpan[] = []
  await until(async () => {
    const each = await Promise.all(origins.map(async origin => (await fetch(new URL(`/spans?trace=${traceId}`, origin))).json() as Promise<RecordedSpan[]>))
    spans = each.flat()
    return spans.length >= count
  }, `${count} spans of trace ${traceId}`)
  return spans
}
