import type { H3Event } from 'h3'
import type { AuthInfo } from '@modelcontextprotocol/server'
import type { McpEra, McpRequestScope } from '../../common/context'

/** What a guard knows about the caller. */
export interface McpGuardContext {
  /** The h3 event of the HTTP request being served. */
  event: H3Event
  /** Set by the built-in OAuth check (`mcp.auth`) or your `mcp:auth` hook. */
  principal?: string
  authInfo?: AuthInfo
  era: McpEra
}

/** Decides whether the caller may see and use one definition. */
export type McpGuard = (context: McpGuardContext) => boolean | Promise<boolean>

/** The guard fields every tool, resource and prompt definition may carry. */
export interface McpGuarded {
  /**
   * OAuth scopes the caller's access token must all carry (`mcp.auth`). Without them the
   * definition is absent from the caller's lists and refused as an unknown name.
   */
  scopes?: readonly string[]
  /**
   * Whether this caller may see and use the definition. `false` (or a guard that throws) hides
   * it from the caller's lists and refuses it as an unknown name.
   */
  enabled?: McpGuard
}

/** Whether a definition has a guard at all: unguarded ones cost nothing per request. */
export function isGuarded(definition: McpGuarded): boolean {
  return (definition.scopes?.length ?? 0) > 0 || definition.enabled !== undefined
}

/**
 * Whether the caller of `scope` may use `definition`: every required scope granted, and its
 * `enabled` guard true. A guard that throws counts as `false` (said in the log): a broken guard
 * must not open what it guards.
 *
 * @example
 * ```ts
 * if (!await mayUse(tool.definition, scope, tool.name)) throw unknownTool(name)
 * ```
 */
export async function mayUse(definition: McpGuarded, scope: McpRequestScope | undefined, name: string): Promise<boolean> {
  if (!isGuarded(definition)) return true
  if (!scope) return false
  const granted = scope.authInfo?.scopes ?? []
  if (definition.scopes?.some(required => !granted.includes(required))) return false
  if (!definition.enabled) return true
  try {
    return await definition.enabled({
      event: scope.event,
      era: scope.era,
      ...(scope.principal !== undefined && { principal: scope.principal }),
      ...(scope.authInfo !== undefined && { authInfo: scope.authInfo }),
    }) === true
  }
  catch (error) {
    console.error(`[nuxt-mcp-elicitation] The enabled() guard of "${name}" threw, so it is hidden from this caller:`, error)
    return false
  }
}

/**
 * The items of a list the caller may see, in order; the list itself when nothing in it is guarded.
 *
 * @example
 * ```ts
 * const tools = await allowedOf(registry.lists.tools, item => registry.tools.get(item.name)?.definition, scope)
 * ```
 */
export async function allowedOf<T extends { name: string }>(items: T[], definitionOf: (item: T, index: number) => McpGuarded | undefined, scope: McpRequestScope | undefined): Promise<T[]> {
  const verdicts = await Promise.all(items.map((item, index) => {
    const definition = definitionOf(item, index)
    return definition ? mayUse(definition, scope, item.name) : true
  }))
  return items.filter((_, index) => verdicts[index])
}

/** Whether the caller may not use a found definition (absent, or guarded away): it is answered as an unknown name. */
export type HiddenCheck = (found: { name: string, definition: McpGuarded } | undefined) => Promise<boolean>

/**
 * The {@link HiddenCheck} of the caller `caller()` returns (the request being served).
 *
 * @example
 * ```ts
 * const hidden = hiddenFrom(() => getMcpScope())
 * if (await hidden(registry.tools.get(name))) throw unknownTool(name)
 * ```
 */
export function hiddenFrom(caller: () => McpRequestScope | undefined): HiddenCheck {
  return async found => !found || (isGuarded(found.definition) && !await mayUse(found.definition, caller(), found.name))
}
