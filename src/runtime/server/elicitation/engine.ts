import { inputRequired, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'
import { setOwn } from '../common/own'
import type { CallToolResult, InputRequiredResult, InputRequests } from '@modelcontextprotocol/server'
import { getMcpScope } from '../common/context'
import type { McpRequestScope } from '../common/context'
import { runAsHandler } from './run'
import type { ElicitationRun } from './run'
import { digestJson, openRequestState, sealRequestState } from './state'
import type { ModernFlowState, StateKey } from './state'
import { checkAnswerShape } from './question'
import { isRecord } from '../common/is-record'
import { logUnavailableDetail } from '../common/store/store'
import { closePage, endPageRound } from './page/flow'

/**
 * Runs `fn` after the current macrotask: `setImmediate` where it exists (Node, Bun), else a zero
 * timer (Workers, Deno), which every runtime has.
 */
const nextMacrotask: (fn: () => void) => void = typeof globalThis.setImmediate === 'function'
  ? fn => void globalThis.setImmediate(fn)
  : fn => void setTimeout(fn, 0)

/**
 * How a handler execution ended: with its value, with questions for the client (modern), or with
 * questions waiting on the app's page (a tool result carrying the link).
 */
export type HandlerOutcome<T> =
  | { kind: 'done', value: T }
  | { kind: 'input-required', result: InputRequiredResult }
  | { kind: 'page', result: CallToolResult }

/**
 * What a modern `requestState` is bound to: the principal, the method, its target (tool or
 * prompt name, resource URI) and a digest of its arguments. A state minted for one of these
 * is refused for any other.
 */
export function bindingOf(scope: McpRequestScope | undefined): string {
  const body = isRecord(scope?.body) ? scope.body : {}
  const params = isRecord(body.params) ? body.params : {}
  return digestJson({ p: scope?.principal ?? '', m: body.method, t: params.name ?? params.uri, a: params.arguments ?? {} })
}

/** The signing key of this endpoint's states: the secret, and the server name and route. */
function stateKey(secret: string, serverName: string, scope: McpRequestScope | undefined): StateKey {
  return { secret, domain: `${serverName} ${scope?.event.path.split('?')[0] ?? ''}` }
}

/**
 * The `requestState.verify` hook: runs before the handler, so a forged, expired, foreign or
 * replayed-elsewhere state never reaches user code. The SDK turns a throw into JSON-RPC `-32602`.
 */
export function verifyRequestState(secret: string, serverName: string, wire: string, known?: McpRequestScope): ModernFlowState {
  const scope = known ?? getMcpScope()
  return openRequestState(stateKey(secret, serverName, scope), wire, bindingOf(scope))
}

/**
 * Malformed answers are a protocol error (spec: malformed `inputResponses` SHOULD get a
 * JSON-RPC error); keys we never asked are ignored.
 */
function assertWellFormedResponses(state: ModernFlowState | undefined, responses: Record<string, unknown>, dropped: string[]): void {
  for (const [key, asked] of Object.entries(state?.asked ?? {})) {
    if (dropped.includes(key)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `inputResponses["${key}"] is not a bare result of the request asked under that key (e.g. { action, content? } for an elicitation). Send the bare result, not a { method, result } wrapper.`)
    }
    if (!Object.hasOwn(responses, key)) continue
    const problem = checkAnswerShape(asked.k, responses[key])
    if (problem) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `inputResponses["${key}"]: ${problem}`)
  }
}

function endRound(run: ElicitationRun, secret: string): InputRequiredResult {
  const modern = run.modern!
  const inputRequests: InputRequests = {}
  const asked: ModernFlowState['asked'] = {}
  for (const [key, pending] of modern.pending) {
    setOwn(inputRequests, key, pending.request)
    setOwn(asked, key, { q: pending.q, n: pending.n, k: pending.kind })
  }
  const state: ModernFlowState = {
    exp: Date.now() + run.config.elicitation.stateTtlSeconds * 1000,
    bind: bindingOf(run.scope),
    answers: modern.answers,
    asked,
    ...(Object.keys(modern.steps).length > 0 && { steps: modern.steps }),
    nonce: modern.state?.nonce ?? crypto.randomUUID(),
  }
  return inputRequired({ inputRequests, requestState: sealRequestState(stateKey(secret, run.config.name, run.scope), state) })
}

/**
 * Executes handler code under an elicitation run.
 *
 * Legacy: questions are pushed and awaited, so this is a plain call.
 * Modern: an unanswered question never settles its promise; once the handler has queued its
 * questions (a macrotask later, so `Promise.all([...])` siblings join the same round) the round
 * ends with `input_required`. A pending question always wins over whatever the handler does
 * next, so a user's `try/catch` or timeout race cannot turn a pending round into a wrong result.
 *
 * @example
 * ```ts
 * const outcome = await executeHandler(run, secret, () => tool.handler(args, context))
 * if (outcome.kind === 'input-required') return outcome.result
 * ```
 */
export function executeHandler<T>(run: ElicitationRun, secret: string, fn: () => T | Promise<T>): Promise<HandlerOutcome<T>> {
  const { modern, page } = run
  if (!modern && !page) return Promise.resolve().then(() => runAsHandler(run, fn)).then(value => ({ kind: 'done', value }))
  if (modern) assertWellFormedResponses(modern.state, modern.responses, run.ctx.mcpReq.droppedInputResponseKeys ?? [])
  const waiting = () => (modern?.pending.size ?? 0) + (page?.replay.pending.size ?? 0) > 0
  return new Promise((resolve, reject) => {
    let settled = false
    const finishWithQuestions = () => {
      if (settled) return
      settled = true
      // Questions waiting on the page win: the client could not have shown them, and the page
      // shows every question of the round it keeps.
      if (page && page.replay.pending.size > 0) {
        endPageRound(run, page).then(result => resolve({ kind: 'page', result }), reject)
        return
      }
      try {
        resolve({ kind: 'input-required', result: endRound(run, secret) })
      }
      catch (error) {
        reject(error)
      }
    }
    let scheduled = false
    const onPending = () => {
      if (scheduled) return
      scheduled = true
      nextMacrotask(finishWithQuestions)
    }
    if (modern) modern.onPending = onPending
    if (page) page.replay.onPending = onPending
    // The handler finished: a page binding it continued ends, so a later identical call starts
    // afresh. (A store that cannot forget it now lets it expire: the call's result stands.)
    const finish = (outcome: () => void) => {
      settled = true
      if (!page?.record) return outcome()
      closePage(run, page).catch(logUnavailableDetail).then(outcome)
    }
    Promise.resolve().then(() => runAsHandler(run, fn)).then(
      (value) => {
        if (settled) return
        if (waiting()) return finishWithQuestions()
        finish(() => resolve({ kind: 'done', value }))
      },
      (error: unknown) => {
        if (settled) return
        if (waiting()) return finishWithQuestions()
        finish(() => reject(error))
      },
    )
  })
}
