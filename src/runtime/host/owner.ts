import { randomBytes } from 'node:crypto'
import { getCookie, getRequestURL, setCookie } from 'h3'
import type { H3Event } from 'h3'
import { useNitroApp } from 'nitropack/runtime'

/**
 * Who owns a pending elicitation, so that only the person who saw it can answer it.
 *
 * - By default, the browser: a random id in an httpOnly, `SameSite=Strict` cookie
 *   (`mcp_elicitation_owner`), set by the chat route the first time it runs for this browser.
 * - When the app has users, its own user id: set `context.owner` in an `mcp:host-owner` hook; the
 *   same hook runs for the chat route and for the respond endpoint, so a logged-in user can answer
 *   from another tab or device, and nobody else can.
 */

/** The cookie holding the per-browser owner id. */
const MCP_OWNER_COOKIE = 'mcp_elicitation_owner'

const COOKIE_VALUE = /^[\w-]{32,128}$/

/**
 * What an `mcp:host-owner` hook receives: read the request, set `owner` to the user's id. (The hook
 * is declared with every hook of the module, in runtime/server/hooks.ts.)
 */
export interface McpHostOwnerContext {
  event: H3Event
  /** A stable id of the signed-in user; leave unset to fall back to the browser cookie. */
  owner?: string
}

/**
 * The browser's owner key from its cookie; with `create`, sets a new cookie when there is none
 * (synchronously, so it goes out with the response headers of a streaming route).
 *
 * @example
 * ```ts
 * const key = browserOwner(event, { create: true }) // 'browser:…'
 * ```
 */
export function browserOwner(event: H3Event, options: { create: boolean }): string | undefined {
  const existing = getCookie(event, MCP_OWNER_COOKIE)
  if (existing && COOKIE_VALUE.test(existing)) return `browser:${existing}`
  if (!options.create) return undefined
  if (event.node.res.headersSent) {
    console.warn('[nuxt-mcp-elicitation] useMcpHostElicitation() was called after the response started: the owner cookie cannot be set, so this browser cannot answer. Call it before the first `await` of the route or of `execute`.')
    return undefined
  }
  const value = randomBytes(32).toString('base64url')
  setCookie(event, MCP_OWNER_COOKIE, value, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure: getRequestURL(event).protocol === 'https:',
  })
  return `browser:${value}`
}

/**
 * The owner key of this request: the `mcp:host-owner` hook's user id when it sets one, else the
 * browser cookie's (the chat route passes the one it created in `fallback`).
 *
 * @example
 * ```ts
 * const owner = await resolveOwner(event, browserOwner(event, { create: false }))
 * ```
 */
export async function resolveOwner(event: H3Event, fallback: string | undefined): Promise<string | undefined> {
  const context: McpHostOwnerContext = { event }
  await useNitroApp().hooks.callHook('mcp:host-owner', context)
  if (typeof context.owner === 'string' && context.owner) return `user:${context.owner}`
  return fallback
}
