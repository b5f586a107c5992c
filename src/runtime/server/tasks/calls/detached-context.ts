import type { ServerContext } from '@modelcontextprotocol/server'

/**
 * The SDK context of a request whose handler goes on after the request ended (a task): what it
 * told (id, method, `_meta`, the caller's auth) without its ways back to the request. Those ways
 * (`send`, `notify`, `log`, the HTTP request) hold the request's transport and its whole
 * per-request server: kept by a task waiting an hour for a person, they cost more than the task
 * itself (bench/results/tasks.md). A task's handler asks, logs and reports progress through its
 * task (`ParkedRun`); a direct call of these fails with what to use instead. Its `signal` is the
 * task's (the request's would keep the listeners the SDK put on it).
 *
 * @example
 * ```ts
 * run.ctx = detachContext(run.ctx, run.parked.signal) // once the run is parked with its task
 * ```
 */
export function detachContext(ctx: ServerContext, signal: AbortSignal): ServerContext {
  const { id, method, _meta, envelope } = ctx.mcpReq
  const ended = (what: string) => (): Promise<never> => Promise.reject(new Error(`${what} is not available in a task: the request it began in has ended. Use useMcpElicitation() to ask, and the handler's log() and progress(), which go through the task.`))
  const authInfo = ctx.http?.authInfo
  return {
    ...(ctx.sessionId !== undefined && { sessionId: ctx.sessionId }),
    mcpReq: {
      id,
      method,
      ...(_meta !== undefined && { _meta }),
      ...(envelope !== undefined && { envelope }),
      signal,
      requestState: () => undefined,
      send: ended('ctx.mcpReq.send'),
      notify: ended('ctx.mcpReq.notify'),
      log: ended('ctx.mcpReq.log'),
      elicitInput: ended('ctx.mcpReq.elicitInput'),
      requestSampling: ended('ctx.mcpReq.requestSampling'),
    },
    ...(authInfo !== undefined && { http: { authInfo } }),
  }
}
