import type { McpRequestScope } from '../../common/context'
import { digestJson } from '../state'

/**
 * Who is calling, as far as a later call can be told to be the same caller: the principal when
 * `mcp:auth` named one, else the legacy session (its id is a credential only that client holds).
 * An anonymous 2026-07-28 caller has neither, so it is `undefined`: two such callers with the
 * same arguments cannot be told apart, and nothing may be bound to one of them.
 *
 * @example
 * ```ts
 * callerOf({ principal: 'ada', ... }) // 'p:ada'
 * callerOf({ era: 'modern', ... })    // undefined
 * ```
 */
export function callerOf(scope: Pick<McpRequestScope, 'principal' | 'sessionId'>): string | undefined {
  if (scope.principal !== undefined) return `p:${scope.principal}`
  if (scope.sessionId !== undefined) return `s:${scope.sessionId}`
  return undefined
}

/**
 * The key that ties a later call to an earlier one: the endpoint, the caller, the tool and its
 * arguments (canonical JSON, so key order does not matter). The same tool called again by the
 * same caller with the same arguments finds what the first call left (a question's page, a job
 * that went on); `undefined` when the caller cannot be told apart (see {@link callerOf}).
 *
 * @example
 * ```ts
 * const binding = callBindingOf(scope, 'deploy', { env: 'prod' })
 * if (binding) await store.get(`page:${binding}`)
 * ```
 */
export function callBindingOf(scope: Pick<McpRequestScope, 'principal' | 'sessionId' | 'route'>, tool: string, args: unknown): string | undefined {
  const caller = callerOf(scope)
  return caller === undefined ? undefined : bindingOf(scope.route, caller, tool, args)
}

/**
 * {@link callBindingOf} for a caller already known ({@link callerOf}): a digest of the arguments,
 * so taken only when a binding is used, not on every call that might use one.
 *
 * @example
 * ```ts
 * bindingOf('/mcp', 's:3f…', 'deploy', { env: 'prod' })
 * ```
 */
export function bindingOf(route: string, caller: string, tool: string, args: unknown): string {
  return digestJson({ r: route, c: caller, t: tool, a: args ?? {} })
}
