import type { ClientCapabilities, InputRequest, Server, ServerContext } from '@modelcontextprotocol/server'
import { getMcpFrame, runInMcpFrame } from '../common/context'
import type { McpRequestScope } from '../common/context'
import type { McpServerConfig } from '../common/config'
import type { McpStateStore } from '../common/store/store'
import type { ModernFlowState } from './state'
import type { QuestionKind } from './question'

/** A question waiting for its answer in the current modern round. */
export interface PendingQuestion {
  request: InputRequest
  /** Digest of the original question (mode, message, schema or URL): answers are bound to it. */
  q: string
  /** How many times it has been asked, counting this one. */
  n: number
  kind: QuestionKind
}

/**
 * One execution of one handler: what `useMcpElicitation()` reads. Legacy runs push questions on
 * the open stream; modern runs collect unanswered questions and end the round.
 */
export interface ElicitationRun {
  scope: McpRequestScope
  ctx: ServerContext
  config: McpServerConfig
  /** Where modern `once()` steps are claimed and recorded (the replay guard). */
  store: McpStateStore
  /** The legacy session's server (for later notifications); absent on modern requests. */
  server?: Server
  /** The client's capabilities for THIS request (modern: its envelope; legacy: its initialize). */
  capabilities: ClientCapabilities | undefined
  /** Legacy: the protocol revision the session negotiated (forms are adapted to it). */
  protocolVersion?: string
  /** Counts `elicit.*` calls, in call order, to derive default keys. */
  calls: number
  /** The definition being run, for observers (`mcp:question`): its request method and name. */
  call?: { method: string, name: string }
  modern?: {
    state: ModernFlowState | undefined
    responses: Record<string, unknown>
    /** Answers accepted so far, carried into the next state. */
    answers: ModernFlowState['answers']
    /** `once()` results so far, carried into the next state. */
    steps: Record<string, { v?: unknown }>
    pending: Map<string, PendingQuestion>
    /** Called when a question becomes pending: the engine ends the round soon after. */
    onPending: () => void
  }
}

declare module '../common/context' {
  interface McpFrameSlots {
    /** The handler run that `useMcpElicitation()` reads. */
    run: ElicitationRun
  }
}

/** Runs `fn` as handler code of `run` (in the request's frame: one storage for both). */
export function runAsHandler<T>(run: ElicitationRun, fn: () => T): T {
  return runInMcpFrame({ run }, fn)
}

/** The run of the handler currently executing, if any. */
export function getCurrentRun(): ElicitationRun | undefined {
  return getMcpFrame()?.run
}

/** Counters for leak tests; not part of the public API. */
export const elicitationCounters = { pendingLegacy: 0 }
