import type { McpServerConfig } from '../../common/config'
import type { McpSharedState } from '../../cluster/shared-state'
import type { HandlerDeps } from '../../mcp/server/handlers'
import { SharedSessionDirectory, sharedRecordTtl } from '../shared/sessions'
import { JournalBudget } from '../streams/journal-budget'
import { LegacySessions } from './legacy-sessions'

/**
 * The process's one budget for the resumable streams of every endpoint's sessions: an endpoint
 * cannot set `sessions` of its own, so the first one made sets it for all.
 */
let processJournals: JournalBudget | undefined

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
  processJournals ??= new JournalBudget(config.sessions.maxResumableBytes, 'oldest')
  return new LegacySessions(deps, directory, processJournals)
}
