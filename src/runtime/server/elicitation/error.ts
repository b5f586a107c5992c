/**
 * Why an elicitation could not produce an answer.
 *
 * - `unsupported`: the client did not declare the requested mode (`form` or `url`).
 * - `invalid-schema`: the Zod shape cannot become a spec-exact form (or asks for a secret).
 * - `invalid-response`: the client's answer does not match the shape.
 * - `invalid-url`: a URL-mode target is not an allowed http(s) URL.
 * - `timeout`: nobody answered within the timeout.
 * - `cancelled`: the wait was aborted (tool-call cancellation, disconnect, session end, your signal).
 * - `outside-handler`: `useMcpElicitation()` was called outside a tool, resource or prompt handler.
 * - `protocol`: the client answered with a protocol error.
 * - `duplicate-key`: two different questions in one handler share a `key`.
 * - `in-progress`: a `once()` step is still running for another copy of the same modern round.
 * - `unavailable`: the store that guards `once()` steps cannot be written (full or unreachable);
 *   the step did not run.
 * - `unknown-view`: `form({ view })` names an MCP App view that does not exist (`app/mcp/<name>.vue`).
 * - `limit`: the caller already has `mcp.elicitation.page.maxOpenPerCaller` questions waiting on
 *   the app's page.
 */
export type McpElicitationErrorCode =
  | 'unsupported'
  | 'invalid-schema'
  | 'invalid-response'
  | 'invalid-url'
  | 'timeout'
  | 'cancelled'
  | 'outside-handler'
  | 'protocol'
  | 'duplicate-key'
  | 'in-progress'
  | 'unavailable'
  | 'unknown-view'
  | 'limit'

/** Extra facts carried by an {@link McpElicitationError}. */
export interface McpElicitationErrorDetails {
  /** The form field the error is about, when there is one. */
  field?: string
  /** Per-field problems, e.g. of an invalid answer. */
  issues?: string[]
  /** The underlying error (an SDK error, an abort reason). */
  cause?: unknown
}

/**
 * The one error type every elicitation problem is reported with. Its message names the field or
 * value at fault and the way out.
 *
 * @example
 * ```ts
 * try {
 *   const r = await useMcpElicitation().form({ message: 'Pick', schema: { n: z.number() } })
 * } catch (error) {
 *   if (error instanceof McpElicitationError && error.code === 'unsupported') return 'This client cannot show forms.'
 *   throw error
 * }
 * ```
 */
export class McpElicitationError extends Error {
  override readonly name = 'McpElicitationError'
  readonly code: McpElicitationErrorCode
  readonly field?: string
  readonly issues?: string[]

  constructor(code: McpElicitationErrorCode, message: string, details: McpElicitationErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause })
    this.code = code
    this.field = details.field
    this.issues = details.issues
  }
}
