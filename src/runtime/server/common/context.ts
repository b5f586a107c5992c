import { AsyncLocalStorage } from 'node:async_hooks'
import type { H3Event } from 'h3'
import type { AuthInfo } from '@modelcontextprotocol/server'

/** The protocol era one request is served in. */
export type McpEra = 'legacy' | 'modern'

/**
 * What the module knows about the HTTP request being served. It lives in an `AsyncLocalStorage`
 * owned by the module, so handlers reach it across every `await` without Nitro's asyncContext flag.
 */
export interface McpRequestScope {
  event: H3Event
  era: McpEra
  /** The route of the endpoint serving it (`/mcp`, or another endpoint's, e.g. `/mcp/admin`). */
  route: string
  /** Aborted when the client goes away (h3 does not propagate disconnects itself). */
  readonly signal: AbortSignal
  /** Who is calling, as set by the `mcp:auth` hook; binds modern `requestState`. */
  principal?: string
  authInfo?: AuthInfo
  /** The parsed JSON-RPC body of the POST, read once. */
  body?: unknown
  /** The legacy session's id: its credential when anonymous, so never told to telemetry. */
  sessionId?: string
  /**
   * The client's address (the peer's, or behind `trustedProxies` the one the nearest trusted
   * proxy names): what an anonymous caller is counted by, and its 2026-07-28 tasks bound to.
   */
  address?: string
  /**
   * The legacy session as telemetry tells it (spans, the server's log lines, `mcp:call` and
   * `mcp:question`): a keyed hash of `sessionId`, the same on every instance that shares the state secret.
   */
  readonly sessionTag?: string
  /** The tools this request may list and call when `X-MCP-Tools` narrows them; absent: the endpoint's. */
  toolSubset?: McpToolSubset
}

/**
 * The tools one request may list and call, when a subset narrows them (`X-MCP-Tools`, or the
 * endpoint's `tools` option): their names, the module's companion tools always among them, and
 * where the subset comes from, as refusals name it.
 *
 * @example
 * ```ts
 * const subset: McpToolSubset = { names: new Set(['search']), source: 'the X-MCP-Tools header ("search")' }
 * ```
 */
export interface McpToolSubset {
  names: ReadonlySet<string>
  source: string
}

/**
 * What a wing lays over the request scope for the code it runs; each wing adds its own field by
 * declaration merging (the elicitation engine: the handler's `run`), so this file knows none of them.
 */
export interface McpFrameSlots {}

/** What the module's one `AsyncLocalStorage` carries: the request's scope, and the wings' slots. */
export type McpFrame = { scope?: McpRequestScope } & Partial<McpFrameSlots>

// One storage for everything the module carries across awaits: on Node 22 each storage adds work
// to every promise the process creates (bench/measure/als-cost.mjs: a second one, 1.04× CPU).
const storage = new AsyncLocalStorage<McpFrame>()

/**
 * Runs `fn` with `scope` as the current MCP request scope.
 *
 * @example
 * ```ts
 * await runInMcpScope({ event, era: 'modern', signal }, () => handler.fetch(request))
 * ```
 */
export function runInMcpScope<T>(scope: McpRequestScope, fn: () => T): T {
  return storage.run({ scope }, fn)
}

/**
 * Runs `fn` outside any MCP request scope. What `fn` creates that outlives the request (a timer
 * on a keep-alive socket) then holds no request: a timer keeps the async context it was made in,
 * and with it the scope's event, request and response, until it is cleared.
 *
 * @example
 * ```ts
 * res.once('finish', () => outsideMcpScope(() => socket.setTimeout(ms)))
 * ```
 */
export function outsideMcpScope<T>(fn: () => T): T {
  return storage.exit(fn)
}

/**
 * The scope of the MCP request being served, or `undefined` outside one.
 *
 * @example
 * ```ts
 * const scope = getMcpScope()
 * if (scope?.era === 'modern') console.log('stateless request')
 * ```
 */
export function getMcpScope(): McpRequestScope | undefined {
  return storage.getStore()?.scope
}

/**
 * Runs `fn` with `slots` laid over the current frame (its scope stays the current one).
 *
 * @example
 * ```ts
 * runInMcpFrame({ run }, () => handler(args))
 * ```
 */
export function runInMcpFrame<T>(slots: Partial<McpFrameSlots>, fn: () => T): T {
  return storage.run({ ...storage.getStore(), ...slots }, fn)
}

/**
 * The current frame (scope and slots), or `undefined` outside any.
 *
 * @example
 * ```ts
 * const run = getMcpFrame()?.run
 * ```
 */
export function getMcpFrame(): McpFrame | undefined {
  return storage.getStore()
}

/**
 * What a per-caller cap counts by: the principal, or the client address when anonymous. One
 * key for every cap (legacy sessions, tasks), so one caller is one caller everywhere.
 *
 * @example
 * ```ts
 * callerKeyOf('ana', '10.0.0.1') // 'principal:ana'
 * callerKeyOf(undefined, '10.0.0.1') // 'address:10.0.0.1'
 * ```
 */
export function callerKeyOf(principal: string | undefined, address: string): string {
  return principal !== undefined ? `principal:${principal}` : `address:${address}`
}
