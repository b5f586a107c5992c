/**
 * One of the app's hooks (`mcp:auth`, `mcp:auth:token`, `mcp:request`) as the endpoint calls it.
 * `listening()` is asked on every request, so hooks added at run time count, and a request that
 * nobody listens for builds no context and starts no promise chain: most apps register none of
 * these hooks, and a request-per-call protocol pays each cost on every message.
 *
 * @example
 * ```ts
 * const beforeRequest: McpAppHook<McpRequestContext> = {
 *   listening: () => true,
 *   call: async context => console.log(context.rpcMethods),
 * }
 * if (beforeRequest.listening()) await beforeRequest.call(context)
 * ```
 */
export interface McpAppHook<Context> {
  listening: () => boolean
  call: (context: Context) => Promise<void>
}

/**
 * The hook when someone listens to it now, else `undefined`.
 *
 * @example
 * ```ts
 * const authenticate = listeningHook(options.authenticate)
 * if (authenticate) await authenticate(auth)
 * ```
 */
export function listeningHook<Context>(hook: McpAppHook<Context> | undefined): McpAppHook<Context>['call'] | undefined {
  return hook?.listening() ? hook.call : undefined
}
