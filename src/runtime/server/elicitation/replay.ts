import type { InputRequest } from '@modelcontextprotocol/server'
import type { ModernFlowState } from './state'
import type { QuestionKind } from './question'

// What a flow that replays the handler each round holds (a modern run's, a page run's).

/**
 * A question waiting for its answer in the current modern round.
 *
 * @example
 * ```ts
 * flow.pending.set('q0', { request, q: digest, n: 1, kind: 'elicit' })
 * ```
 */
export interface PendingQuestion {
  request: InputRequest
  /** Digest of the original question (mode, message, schema or URL): answers are bound to it. */
  q: string
  /** How many times it has been asked, counting this one. */
  n: number
  kind: QuestionKind
  /** A consent question (`confirm()`): a person answers it, never a model. */
  consent?: boolean
}

/**
 * A flow that replays the handler from the top each round: what the earlier rounds left (their
 * state, answers and `once()` results), this round's answers, and the questions it leaves open.
 * A modern run's state travels with the client; a page run's stays on the server.
 *
 * @example
 * ```ts
 * const result = await askReplay(run, run.page.replay, 'q0', question)
 * ```
 */
export interface ReplayFlow {
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
