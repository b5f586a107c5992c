import { SdkError, SdkErrorCode } from '@modelcontextprotocol/server'
import type { InputRequest } from '@modelcontextprotocol/server'
import { McpElicitationError } from './error'
import { emitAnswered, emitReasked } from './events'
import { elicitationCounters } from './run'
import type { ElicitationRun } from './run'
import { checkAnswerShape, stayedInvalid } from './question'
import type { Question } from './question'

/** Per-call wait options. */
export interface WaitOptions {
  /** Milliseconds to wait for the person; defaults to the module's `elicitation.timeoutMs`. */
  timeout?: number
  /** Abort the wait yourself. */
  signal?: AbortSignal
}

/** Progress pings keep a client's own request timer alive while a person takes their time. */
function startProgressPings(run: ElicitationRun): () => void {
  const token = run.ctx.mcpReq._meta?.progressToken
  const interval = run.config.elicitation.progressIntervalMs
  if (token === undefined || !(interval > 0)) return () => {}
  let progress = 0
  const timer = setInterval(() => {
    progress += 1
    run.ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress, message: 'Waiting for the user to answer' } }).catch(() => {})
  }, interval)
  timer.unref?.()
  return () => clearInterval(timer)
}

/**
 * One signal that aborts when any of `signals` does. `AbortSignal.any` would do, but it costs about
 * twice as much and keeps weak references alive until collected; this one is released when the
 * wait ends.
 */
function combineSignals(signals: AbortSignal[]): { signal: AbortSignal, release: () => void } {
  const controller = new AbortController()
  const abort = (event: Event) => {
    const source = event.target instanceof AbortSignal ? event.target : undefined
    controller.abort(source?.reason)
  }
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason)
      break
    }
    signal.addEventListener('abort', abort, { once: true })
  }
  return {
    signal: controller.signal,
    release: () => {
      for (const signal of signals) signal.removeEventListener('abort', abort)
    },
  }
}

function toElicitationError(error: unknown, signals: AbortSignal[], timeout: number): McpElicitationError {
  if (error instanceof McpElicitationError) return error
  if (signals.some(signal => signal.aborted)) {
    return new McpElicitationError('cancelled', 'The elicitation was cancelled before an answer arrived (the tool call was cancelled, the client disconnected or the session ended).', { cause: error })
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return new McpElicitationError('timeout', `Nobody answered the elicitation within ${timeout} ms. Pass a longer \`timeout\` or set \`mcp.elicitation.timeoutMs\`.`, { cause: error })
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
    return new McpElicitationError('cancelled', 'The session closed while the elicitation was waiting.', { cause: error })
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.InvalidResult) {
    // The SDK's own message is a dump of schema issues; say what a valid answer looks like instead.
    return new McpElicitationError('invalid-response', 'The client\'s answer is not a valid result: an elicitation answer is { action: \'accept\' | \'decline\' | \'cancel\', content? } with content only on accept (see the error\'s cause for the details).', { cause: error })
  }
  const message = error instanceof Error ? error.message : String(error)
  return new McpElicitationError('protocol', `The client refused the elicitation: ${message}`, { cause: error })
}

/**
 * Asks `question` through `send` until the answer is valid: an invalid answer is asked again
 * with what was wrong, up to `elicitation.maxAttempts` asks in all, then fails with
 * `'invalid-response'` (as on modern); a malformed one fails at once. Legacy pushes and a
 * task's parked questions share it; `send` resolves with the client's raw answer.
 *
 * @example
 * ```ts
 * const result = await askUntilValid(run, 'q0', question, params => push(params))
 * ```
 */
export async function askUntilValid<R>(run: ElicitationRun, key: string, question: Question<R>, send: (params: Record<string, unknown>, request: InputRequest, attempt: number) => Promise<unknown>): Promise<R> {
  let { params, request } = question
  for (let attempt = 1; ; attempt++) {
    const result = await send(params, request, attempt)
    const problem = checkAnswerShape(question.kind, result)
    if (problem) {
      emitAnswered(run, key, question, result, [problem])
      throw new McpElicitationError('invalid-response', `The client's answer to ${question.method} is malformed: ${problem}.`)
    }
    const verdict = question.interpret(result)
    emitAnswered(run, key, question, result, verdict.ok ? undefined : verdict.issues)
    if (verdict.ok) return verdict.result
    if (!question.reask || attempt >= run.config.elicitation.maxAttempts) throw stayedInvalid(question, attempt, verdict.issues)
    ;({ params, request } = question.reask(verdict.issues.join('; ')))
    emitReasked(run, key, question)
  }
}

/**
 * Pushes a question (`elicitation/create`, `sampling/createMessage`, `roots/list`) to a legacy
 * client on the tool call's own response stream and waits for the answer. Related to the current
 * request explicitly: otherwise the SDK sends it on the standalone GET stream, which many
 * clients never open. Invalid answers are asked again ({@link askUntilValid}).
 *
 * @example
 * ```ts
 * const result = await askLegacy(run, 'q0', formQuestion('Name?', requestedSchema, interpret), { timeout: 60_000 })
 * ```
 */
export async function askLegacy<R>(run: ElicitationRun, key: string, question: Question<R>, options: WaitOptions): Promise<R> {
  const timeout = options.timeout ?? run.config.elicitation.timeoutMs
  const signals = [run.ctx.mcpReq.signal, run.scope.signal, ...(options.signal ? [options.signal] : [])]
  const stopPings = startProgressPings(run)
  const combined = combineSignals(signals)
  elicitationCounters.pendingLegacy += 1
  try {
    return await askUntilValid(run, key, question, params => run.ctx.mcpReq.send(
      { method: question.method, params },
      { timeout, signal: combined.signal, relatedRequestId: run.ctx.mcpReq.id, resetTimeoutOnProgress: false },
    ))
  }
  catch (error) {
    throw toElicitationError(error, signals, timeout)
  }
  finally {
    elicitationCounters.pendingLegacy -= 1
    combined.release()
    stopPings()
  }
}
