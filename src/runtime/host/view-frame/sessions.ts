import { randomUUID } from 'node:crypto'
import type { MCPClientConfig } from '@ai-sdk/mcp'

/** What the host keeps for the views of one chat request: how to reach their server again. */
export interface McpViewSession {
  owner: string
  /** The chat's transport config (its headers included): kept in this process only. */
  transport: MCPClientConfig['transport']
  /** The tools a view may call (visibility includes `app`, or none given). */
  callable: ReadonlySet<string>
  expiresAt: number
}

const sessions = new Map<string, McpViewSession>()
/** How many sessions one process keeps at most: the oldest go first. */
const MAX_SESSIONS = 10_000

/**
 * Keeps a session for the views a chat request showed, and returns its id (the `:id` of the call
 * endpoint). In this process only: a view's tool call must reach the instance that served the
 * chat (with several instances, route `/api/_mcp/apps/*` to it, or see docs/host.md).
 *
 * @example
 * ```ts
 * const id = keepViewSession({ owner, transport, callable: new Set(['refresh']), expiresAt: Date.now() + 1_800_000 })
 * ```
 */
export function keepViewSession(session: McpViewSession): string {
  const now = Date.now()
  for (const [id, kept] of sessions) if (kept.expiresAt <= now) sessions.delete(id)
  while (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value ?? '')
  const id = randomUUID()
  sessions.set(id, session)
  return id
}

/**
 * The session `id` names, when it exists, has not expired and belongs to `owner`: one answer
 * (`undefined`) for all three, so that a stranger learns nothing.
 *
 * @example
 * ```ts
 * const session = findViewSession(id, owner)
 * ```
 */
export function findViewSession(id: string | undefined, owner: string | undefined): McpViewSession | undefined {
  const session = id ? sessions.get(id) : undefined
  if (!session || session.expiresAt <= Date.now() || !owner || session.owner !== owner) return undefined
  return session
}
