/**
 * Every hook of the module, in one place: what an app writes in
 * `nitroApp.hooks.hook('mcp:…', listener)` is declared here, each with the type of what its
 * listeners receive, and {@link mcpHookOf} turns one of Nitro's hooks into the runtime's one
 * listener shape (`McpHook`, common/hooks.ts), which is all the wings below ever hold.
 *
 * | hook | listeners receive | called |
 * |---|---|---|
 * | `mcp:auth` | `McpAuthContext` (transport/door/auth.ts) | per request, awaited; `reject()` refuses |
 * | `mcp:auth:token` | `McpTokenContext` (transport/door/auth.ts) | per opaque token while `mcp.auth` is on, awaited |
 * | `mcp:request` | `McpRequestContext` (transport/door/middleware.ts) | per request, awaited; `refuse()` refuses |
 * | `mcp:server` | `McpServerEvent` (mcp/observing/server-hook.ts) | per SDK server built, synchronously |
 * | `mcp:call` | `McpCallEvent` (mcp/observing/observe-calls.ts) | per finished call, never awaited |
 * | `mcp:question` | `McpQuestionEvent` (elicitation/question-events.ts) | per move of a question, never awaited |
 * | `mcp:host-owner` | `McpHostOwnerContext` (runtime/host/owner.ts) | per chat or answer request of the host, awaited (the host calls it through Nitro itself) |
 *
 * This file knows Nitro (its types belong to entry points); it must not be imported by a wing.
 */
import type { NitroApp, NitroRuntimeHooks } from 'nitropack/types'
import type { McpHook } from './common/hooks'
import type { McpAuthContext, McpTokenContext } from './transport/door/auth'
import type { McpRequestContext } from './transport/door/middleware'
import type { McpServerEvent } from './mcp/observing/server-hook'
import type { McpCallEvent } from './mcp/observing/observe-calls'
import type { McpQuestionEvent } from './elicitation/question-events'
import type { McpHostOwnerContext } from '../host/owner'

export type { McpAuthContext, McpTokenContext, McpRequestContext, McpServerEvent, McpCallEvent, McpQuestionEvent, McpHostOwnerContext }

declare module 'nitropack/types' {
  interface NitroRuntimeHooks {
    /** Authenticate an MCP request: set `principal`/`authInfo`, or call `reject()`. */
    'mcp:auth': (context: McpAuthContext) => void | Promise<void>
    /** Vouch for an opaque access token (not a JWT) while `mcp.auth` is on: set `claims`. */
    'mcp:auth:token': (context: McpTokenContext) => void | Promise<void>
    /**
     * Runs before every request of the MCP endpoint, in both eras, once the caller is known:
     * logging, rate limits, tenancy. Call `refuse(status, message)` to turn a request away.
     */
    'mcp:request': (context: McpRequestContext) => void | Promise<void>
    /**
     * An SDK server was built for a legacy session or a modern request: add handlers for methods
     * of your own. Called synchronously; additions after an `await` are refused.
     */
    'mcp:server': (event: McpServerEvent) => void
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
    /** Names the user who owns (and alone may answer) the elicitations of a host request. */
    'mcp:host-owner': (context: McpHostOwnerContext) => void | Promise<void>
  }
}

/** The hooks a caller awaits: their listeners run in turn, and one that throws refuses the request. */
export type McpAwaitedHookName = 'mcp:auth' | 'mcp:auth:token' | 'mcp:request'
/** The hooks that watch: their listeners run now, in order, are never awaited, and a failing one is logged. */
export type McpWatchingHookName = 'mcp:server' | 'mcp:call' | 'mcp:question'

/** What the listeners of hook `Name` receive, as its declaration above says. */
type EventOf<Name extends keyof NitroRuntimeHooks> = Parameters<NitroRuntimeHooks[Name]>[0]

const AWAITED = new Set<string>(['mcp:auth', 'mcp:auth:token', 'mcp:request'] satisfies McpAwaitedHookName[])

/**
 * Whether a listener is registered for `name`. Read from hookable's own table on every call (so
 * listeners added at run time count); a hookable without that table counts as "yes".
 */
function hasListeners(hooks: object, name: string): boolean {
  const table: unknown = Reflect.get(hooks, '_hooks')
  if (typeof table !== 'object' || table === null) return true
  const listeners: unknown = Reflect.get(table, name)
  return Array.isArray(listeners) && listeners.length > 0
}

/**
 * A caller for hookable's `callHookWith` that calls each listener now, in order, with `event`:
 * hookable's own `callHook` makes a `console.createTask` and a promise chain per call, which a
 * request-per-call protocol pays on every message (measured: bench/results/observe.md), and calls
 * the listeners a microtask later (after the SDK may already dispatch to a server just built). A
 * listener that throws or rejects is logged; the others still run.
 */
function callEachWith(name: string, event: unknown): (listeners: Array<(event: unknown) => unknown>) => void {
  const log = (error: unknown) => console.error(`[nuxt-mcp-elicitation] an ${name} hook threw:`, error)
  return (listeners) => {
    for (const listener of listeners) {
      try {
        const done = listener(event)
        if (done instanceof Promise) done.catch(log)
      }
      catch (error) {
        log(error)
      }
    }
  }
}

/**
 * The app's hook `name` in the runtime's one shape: `listening()` asks Nitro's hook table on every
 * call; `call()` runs the listeners. An awaited hook ({@link McpAwaitedHookName}) goes through
 * hookable's `callHook`, so each listener is awaited in turn and a throw (a refusal) rejects; a
 * watching hook ({@link McpWatchingHookName}) calls every listener synchronously and returns
 * nothing, so a watcher never delays or fails what it watches beyond its own synchronous work.
 * The event's type comes from the hook's declaration above.
 *
 * @example
 * ```ts
 * const authenticate = mcpHookOf(useNitroApp().hooks, 'mcp:auth')
 * if (authenticate.listening()) await authenticate.call(createAuthContext(event, '/mcp'))
 * const calls = mcpHookOf(useNitroApp().hooks, 'mcp:call')
 * if (calls.listening()) calls.call(callEvent)
 * ```
 */
export function mcpHookOf<Name extends McpAwaitedHookName>(hooks: NitroApp['hooks'], name: Name): McpHook<EventOf<Name>, Promise<void>>
export function mcpHookOf<Name extends McpWatchingHookName>(hooks: NitroApp['hooks'], name: Name): McpHook<EventOf<Name>>
export function mcpHookOf(hooks: NitroApp['hooks'], name: McpAwaitedHookName | McpWatchingHookName): McpHook<never, Promise<void> | void> {
  const listening = () => hasListeners(hooks, name)
  if (AWAITED.has(name)) return { listening, call: async (context) => { await hooks.callHook(name, context) } }
  return { listening, call: event => hooks.callHookWith(callEachWith(name, event), name, event) }
}
