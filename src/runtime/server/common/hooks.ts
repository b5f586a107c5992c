/**
 * A hook of the module as the runtime holds and calls it: the one shape every wing below the
 * entry points sees, whichever hook it is (`mcp:auth`, `mcp:call`, `mcp:server`, …, and the
 * elicitation engine's own listeners). The entry point `hooks.ts` declares Nitro's hooks and makes
 * one of these from each; nothing below it knows Nitro.
 *
 * - `listening()` is asked first, every time (an app may add a listener at run time). Nobody
 *   listening, the caller builds no event and adds no `await`: most apps listen to none of the
 *   hooks, and a request-per-call protocol would pay each cost on every message.
 * - `call(event)` calls the listeners, in order. `Done` says how the caller treats it:
 *   `Promise<void>` for a hook the caller awaits and that may refuse by rejecting (`mcp:auth`,
 *   `mcp:auth:token`, `mcp:request`); `void` (the default) for a hook that watches: it calls its
 *   listeners now, never throws into the call it watches, and leaves nothing to wait for
 *   (`mcp:call`, `mcp:question`, `mcp:server`, the elicitation events).
 *
 * @example
 * ```ts
 * const calls: McpHook<McpCallEvent> = { listening: () => true, call: event => console.info(event.name) }
 * const auth: McpHook<McpAuthContext, Promise<void>> = { listening: () => true, call: async (context) => { context.principal = 'u1' } }
 * if (calls.listening()) calls.call(event)
 * ```
 */
export interface McpHook<Event, Done extends Promise<void> | void = void> {
  listening: () => boolean
  call: (event: Event) => Done
}

/**
 * The hook's `call` when someone listens to it now, else `undefined`: what a caller that awaits
 * the hook holds, so that nobody listening costs one check and no `await`.
 *
 * @example
 * ```ts
 * const authenticate = listeningHook(options.authenticate)
 * if (authenticate) await authenticate(auth)
 * ```
 */
export function listeningHook<Event, Done extends Promise<void> | void>(hook: McpHook<Event, Done> | undefined): McpHook<Event, Done>['call'] | undefined {
  return hook?.listening() ? hook.call : undefined
}
