import type { McpServerConfig } from '../../common/config'
import type { McpSharedState } from '../../common/shared/shared-state'
import type { HandlerDeps } from '../../mcp/handlers'
import { SharedSessionDirectory, sharedRecordTtl } from '../shared/sessions'
import { DEFAULT_RESUMABLE_BYTES, JournalBudget } from '../streams/journal-budget'
import { LegacySessions } from './legacy-sessions'

/**
 * The process's one budget for the resumable streams of every endpoint's sessions: an endpoint
 * cannot set `sessions` of its own, so the first one made sets it for all.
 */
let processJournals: JournalBudget | undefined

/**
 * `mcp.sessions.maxResumableBytes` as a number of characters: a value that is none (an env
 * variable set to a word) is said once and the default used, so that the option never silently
 * does nothing, nor turns resumption off.
 *
 * @example
 * ```ts
 * resumableBytesOf(useRuntimeConfig().mcp.sessions) // 67108864
 * ```
 */
export function resumableBytesOf(sessions: { maxResumableBytes?: unknown }): number {
  const value = sessions.maxResumableBytes
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value
  console.warn(`[nuxt-mcp-elicitation] mcp.sessions.maxResumableBytes is ${JSON.stringify(value)}, not a number of bytes: using the default, ${DEFAULT_RESUMABLE_BYTES} (64 MiB). Set it (or NUXT_MCP_SESSIONS_MAX_RESUMABLE_BYTES) to a number, e.g. 16777216.`)
  return DEFAULT_RESUMABLE_BYTES
}

/**
 * An endpoint's legacy sessions, with the shared directory when the instances share state. The
 * one way the door reaches the sessions wing, handed to it by the build (`#mcp-elicitation/legacy`):
 * a build with `mcp.legacy: false` (a Worker's default) leaves this file and everything only it
 * imports (sessions, streams, the session side of the shared state) out of the bundle.
 *
 * @example
 * ```ts
 * const sessions = createLegacySessions(deps, config, shared)
 * ```
 */
export function createLegacySessions(deps: HandlerDeps, config: McpServerConfig, shared: Promise<McpSharedState> | undefined): LegacySessions {
  const directory = shared?.then(state => new SharedSessionDirectory(state, sharedRecordTtl(config)))
  processJournals ??= new JournalBudget(resumableBytesOf(config.sessions), 'oldest')
  return new LegacySessions(deps, directory, processJournals)
}
