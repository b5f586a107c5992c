import type { ModernFlowState } from '../state'
import type { QuestionKind } from '../question'
import type { InputRequest } from '@modelcontextprotocol/server'
import type { ReplayFlow } from '../state'

// The shapes of a page run (flow.ts says what it is): apart from flow.ts so that the run's own
// type can name them without an import circle.

/**
 * One question as the page shows it: the modern `inputRequests` entry says everything.
 *
 * @example
 * ```ts
 * const asked: PageAsked = { q: digest, n: 1, k: 'elicit', request: inputRequired.elicit({ message: 'Deploy?', requestedSchema }) }
 * ```
 */
export interface PageAsked {
  q: string
  n: number
  k: QuestionKind
  request: InputRequest
  consent?: true
}

/**
 * What the server keeps of a page run between its calls.
 *
 * @example
 * ```ts
 * const record: PageRecord | undefined = await findPage(store, token).then(open => open?.record)
 * ```
 */
export interface PageRecord {
  id: string
  bind: string
  /** Who may answer on the page when a principal asked; absent: whoever holds the link. */
  principal?: string
  route: string
  tool: string
  args: unknown
  nonce: string
  /** Grows each time the call ends with other questions: the page's answers are kept per round. */
  round: number
  exp: number
  /** The caller's open-question slot this record holds (`maxOpenPerCaller`). */
  slot: string
  asked: Record<string, PageAsked>
  answers: ModernFlowState['answers']
  steps: Record<string, { v?: unknown }>
}

/**
 * One `tools/call` whose questions the client cannot show: where they wait, and what it found.
 *
 * @example
 * ```ts
 * if (run.page) await openPage(run, run.page)
 * ```
 */
export interface PageFlow {
  /** Its call's binding ({@link pageBindingOf} takes it when first used: a digest of the arguments). */
  binding?: string
  caller: string
  principal?: string
  tool: string
  arguments: unknown
  /** The link's start: the configured public origin, the base URL and {@link PAGE_PATH}. */
  linkBase: string
  /** The endpoint's key in the token (empty for the default endpoint), so the page finds its store. */
  endpointKey: string
  /** A tool with an `outputSchema`: the SDK clients refuse its result without `structuredContent` unless `isError`. */
  outputSchema: boolean
  replay: ReplayFlow
  /** The longest timeout of the questions asked this round: how long the link lives. */
  timeoutMs: number
  /** The record this call continues, once opened. */
  record?: PageRecord
  opened?: Promise<void>
  /** The flow's id when this call starts it (a `once()` step ran before its first question). */
  nonce?: string
}

/**
 * One open question as the page shows it (`src/runtime/server/page/`'s `McpPageQuestion` has this shape).
 *
 * @example
 * ```ts
 * const question: PageQuestion = { key: 'q0', mode: 'url', message: 'Connect your account', url: 'https://auth.example.com/connect' }
 * ```
 */
export interface PageQuestion {
  key: string
  mode: 'form' | 'url'
  message: string
  requestedSchema?: Record<string, unknown>
  url?: string
  consent?: boolean
}
