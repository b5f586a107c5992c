import type { LoggingLevel } from '@modelcontextprotocol/server'
import { McpElicitationError } from '../../elicitation/error'
import { getCurrentRun } from '../../elicitation/run'
import type { ElicitationRun } from '../../elicitation/run'

/**
 * Sends `notifications/message` to the connected client, at a level the client asked for
 * (legacy: `logging/setLevel`; modern: the request's log level); otherwise nothing is sent.
 * Never throws: a client that went away just misses the line.
 */
export interface McpClientNotifier {
  (level: LoggingLevel, data: unknown, logger?: string): Promise<void>
  debug: (data: unknown, logger?: string) => Promise<void>
  info: (data: unknown, logger?: string) => Promise<void>
  warning: (data: unknown, logger?: string) => Promise<void>
  error: (data: unknown, logger?: string) => Promise<void>
}

/** What `useMcpLogger()` returns: the client's channel, the server's, and both at once. */
export interface McpLogger {
  /** To the client only (as `@nuxtjs/mcp-toolkit`'s `notify`). */
  notify: McpClientNotifier
  /** Adds fields to every server line this call writes from now on (a user id, a tenant). */
  set: (fields: Record<string, unknown>) => void
  /** One server line (console) named `name`, with the call's context, the `set` fields and `fields`. */
  event: (name: string, fields?: Record<string, unknown>) => void
  /** Both channels: a server line at this level, and the same message to the client. */
  debug: (message: string, fields?: Record<string, unknown>) => Promise<void>
  info: (message: string, fields?: Record<string, unknown>) => Promise<void>
  warn: (message: string, fields?: Record<string, unknown>) => Promise<void>
  error: (message: string, fields?: Record<string, unknown>) => Promise<void>
}

type ServerLevel = 'debug' | 'info' | 'warn' | 'error'
const CLIENT_LEVEL: Record<ServerLevel, LoggingLevel> = { debug: 'debug', info: 'info', warn: 'warning', error: 'error' }

/** The call's context on every server line: what, who, where, which request. */
function contextOf(run: ElicitationRun): Record<string, unknown> {
  const { scope, ctx, call } = run
  return {
    ...(call && { call: `${call.method} ${call.name}` }),
    requestId: String(ctx.mcpReq.id),
    ...(scope.principal !== undefined && { principal: scope.principal }),
    // The session's tag, never its id: a log drain's readers could take an anonymous session over.
    ...(scope.sessionTag !== undefined && { sessionTag: scope.sessionTag }),
    endpoint: scope.route,
    era: scope.era,
  }
}

/** One JSON line, so a log drain can parse it; a field JSON cannot hold is written as text. */
function writeLine(level: ServerLevel, record: Record<string, unknown>): void {
  let line: string
  try {
    line = JSON.stringify(record, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value))
  }
  catch {
    line = JSON.stringify(Object.fromEntries(Object.entries(record).map(([key, value]) => [key, typeof value === 'object' && value !== null ? String(value) : value])))
  }
  console[level](`[mcp] ${line}`)
}

/**
 * A logger bound to the current tool, resource or prompt call: `notify` writes to the client
 * (`notifications/message`, at the client's level), `set` / `event` write JSON lines to the
 * server's console with the call's context (call, request id, principal, session, endpoint, era),
 * and `info` / `warn` / `error` / `debug` write to both. Compatible in name and shape with
 * `@nuxtjs/mcp-toolkit`'s `useMcpLogger` (`notify`, `set`, `event`), without its evlog dependency.
 *
 * @example
 * ```ts
 * export default defineMcpTool({
 *   async handler() {
 *     const log = useMcpLogger('billing')
 *     log.set({ tenant: 'acme' })
 *     await log.notify.info('Charging…')              // the client sees it
 *     log.event('charge_started', { amount: 1000 })   // the server's log has it, with the call
 *     await log.warn('Card expires soon')             // both
 *     return 'charged'
 *   },
 * })
 * ```
 */
export function useMcpLogger(prefix?: string): McpLogger {
  const run = getCurrentRun()
  if (!run) {
    throw new McpElicitationError('outside-handler', 'useMcpLogger() was called outside an MCP tool, resource or prompt handler (or, where the request context does not follow `await`, after the handler\'s first `await`). Call it at the top of the `handler` function.')
  }
  const fields: Record<string, unknown> = {}
  const send = async (level: LoggingLevel, data: unknown, logger?: string): Promise<void> => {
    try {
      await (run.parked ? run.parked.log(level, data, logger ?? prefix) : run.ctx.mcpReq.log(level, data, logger ?? prefix))
    }
    catch {
      // The client went away or the transport is closed: a log line is not worth failing the call.
    }
  }
  const notify: McpClientNotifier = Object.assign(send, {
    debug: (data: unknown, logger?: string) => send('debug', data, logger),
    info: (data: unknown, logger?: string) => send('info', data, logger),
    warning: (data: unknown, logger?: string) => send('warning', data, logger),
    error: (data: unknown, logger?: string) => send('error', data, logger),
  })
  const line = (level: ServerLevel, message: string, extra?: Record<string, unknown>) =>
    writeLine(level, { message, level, ...(prefix && { logger: prefix }), ...contextOf(run), ...fields, ...extra })
  const both = (level: ServerLevel) => async (message: string, extra?: Record<string, unknown>) => {
    line(level, message, extra)
    await send(CLIENT_LEVEL[level], extra ? { message, ...extra } : message)
  }
  return {
    notify,
    set: (more) => {
      Object.assign(fields, more)
    },
    event: (name, extra) => line('info', name, extra),
    debug: both('debug'),
    info: both('info'),
    warn: both('warn'),
    error: both('error'),
  }
}
