import type { McpCallEvent } from '../mcp/observing/observe-calls'

/** One finished call, as the DevTools tab lists it (dev only): what, where, how it ended, how long. */
export interface CallRecord {
  id: number
  /** When it finished (ISO time). */
  at: string
  /** The route of the endpoint that served it. */
  endpoint: string
  era: 'legacy' | 'modern'
  method: string
  name: string
  /** The `mcp:call` outcome, with a protocol error's code (`protocol-error -32602`). */
  outcome: string
  ms: number
}

const MAX_RECORDS = 100
let records: CallRecord[] = []
let nextId = 1

/**
 * Records a finished call, told by the `mcp:call` hook: a listener of the app's own hook,
 * attached by the dev-only Nitro plugin.
 *
 * @example
 * ```ts
 * nitro.hooks.hook('mcp:call', recordCall)
 * ```
 */
export function recordCall(event: McpCallEvent): void {
  records.push({
    id: nextId++,
    at: new Date().toISOString(),
    endpoint: event.endpoint,
    era: event.era,
    method: event.method,
    // A resource URI is as long as the caller made it.
    name: event.name.slice(0, 500),
    outcome: event.errorCode === undefined ? event.outcome : `${event.outcome} ${event.errorCode}`,
    ms: Math.round(event.durationMs),
  })
  if (records.length > MAX_RECORDS) records.shift()
}

/**
 * The latest calls, newest first.
 *
 * @example
 * ```ts
 * const [latest] = listCallRecords()
 * ```
 */
export function listCallRecords(): CallRecord[] {
  return records.slice().reverse()
}

/**
 * Forgets every call (the tab's "Clear").
 *
 * @example
 * ```ts
 * clearCallRecords()
 * ```
 */
export function clearCallRecords(): void {
  records = []
}
