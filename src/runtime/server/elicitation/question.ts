import { inputRequired, specTypeSchemas } from '@modelcontextprotocol/server'
import type { CreateMessageRequestParams, ElicitRequestFormParams, ElicitRequestURLParams, InputRequest } from '@modelcontextprotocol/server'
import { McpElicitationError } from './error'
import { checkResponseShape } from './responses'
import { isRecord } from '../common/is-record'

/** The kinds of input a handler can ask the client for, in both eras. */
export type QuestionKind = 'elicit' | 'sample' | 'roots'

/** What checking an answer against the question yields. */
export type Verdict<R> = { ok: true, result: R } | { ok: false, issues: string[] }

/**
 * One request to the client, described once for both eras: what goes on the wire (pushed on
 * legacy, embedded in `input_required` on modern), how to re-ask after a bad answer, and how to
 * turn the client's answer into the handler's result.
 */
export interface Question<R> {
  kind: QuestionKind
  /** The legacy JSON-RPC method and params pushed to the client. */
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list'
  params: Record<string, unknown>
  /** The modern `inputRequests` entry. */
  request: InputRequest
  /** The message shown to the person, for re-asking after an invalid answer (elicitation only). */
  message?: string
  /**
   * The question asked again with the problems appended to the message: the pushed params
   * (legacy) and the `inputRequests` entry (modern). Absent: an invalid answer is final.
   */
  reask?: (problems: string) => { params: Record<string, unknown>, request: InputRequest }
  interpret: (response: unknown) => Verdict<R>
  /** Names the fields at fault in an invalid answer (forms). */
  invalid?: (issues: string[]) => McpElicitationError
  /** A consent question (`confirm()`, or a form marked `consent`): only a person answers it. */
  consent?: boolean
}

/**
 * The error for an answer that stayed invalid through every allowed ask: the same in both eras.
 *
 * @example
 * ```ts
 * throw stayedInvalid(question, 3, verdict.issues)
 * ```
 */
export function stayedInvalid(question: Question<unknown>, attempts: number, issues: string[]): McpElicitationError {
  const detail = question.invalid?.(issues)
  const times = attempts === 1 ? 'once' : `${attempts} times`
  const what = `The answer to "${question.message ?? question.method}" was invalid ${times}`
  return new McpElicitationError('invalid-response', detail ? `${what}. ${detail.message}` : `${what}: ${issues.join('; ')}.`, { issues, field: detail?.field })
}

/**
 * A form question (`elicitation/create`, form mode). `resourceUri` attaches an MCP App that renders
 * it (SEP-3118: `_meta.ui.resourceUri`), kept when the question is asked again.
 */
export function formQuestion<R>(message: string, requestedSchema: ElicitRequestFormParams['requestedSchema'], interpret: (response: unknown) => Verdict<R>, invalid: (issues: string[]) => McpElicitationError, resourceUri?: string): Question<R> {
  const meta = resourceUri === undefined ? {} : { _meta: { ui: { resourceUri } } }
  const params = (text: string) => ({ message: text, requestedSchema, ...meta })
  return {
    invalid,
    kind: 'elicit',
    method: 'elicitation/create',
    params: params(message),
    request: inputRequired.elicit(params(message)),
    message,
    reask: (problems) => {
      const corrected = `${message}\n\nPlease correct your answer: ${problems}.`
      return { params: params(corrected), request: inputRequired.elicit(params(corrected)) }
    },
    interpret,
  }
}

/** A URL-mode question. `elicitationId` exists on the legacy wire only. */
export function urlQuestion<R>(message: string, url: ElicitRequestURLParams['url'], elicitationId: string | undefined, interpret: (response: unknown) => Verdict<R>): Question<R> {
  return {
    kind: 'elicit',
    method: 'elicitation/create',
    params: { mode: 'url', message, url, ...(elicitationId && { elicitationId }) },
    request: inputRequired.elicitUrl({ message, url }),
    interpret,
  }
}

/** A sampling request (`sampling/createMessage`). */
export function sampleQuestion<R>(params: CreateMessageRequestParams, interpret: (response: unknown) => Verdict<R>): Question<R> {
  return { kind: 'sample', method: 'sampling/createMessage', params: { ...params }, request: inputRequired.createMessage(params), interpret }
}

/** A roots listing (`roots/list`). */
export function rootsQuestion<R>(interpret: (response: unknown) => Verdict<R>): Question<R> {
  return { kind: 'roots', method: 'roots/list', params: {}, request: inputRequired.listRoots(), interpret }
}

/** The first problem the spec's schema finds in `value`, as `path: message`, or `undefined`. */
function specProblem(type: 'CreateMessageResultWithTools' | 'ListRootsResult', value: unknown): string | undefined {
  const result = specTypeSchemas[type]['~standard'].validate(value)
  // The SDK's spec schemas are synchronous Zod schemas; a promise would be a changed SDK.
  if (result instanceof Promise) return `could not be checked against ${type}`
  const issue = result.issues?.[0]
  if (!issue) return undefined
  const path = (issue.path ?? []).map(part => (typeof part === 'object' ? String(part.key) : String(part))).join('.')
  return `${path ? `${path}: ` : ''}${issue.message}`
}

/**
 * Whether a client's answer has the shape its kind needs, before any content check: an
 * elicitation result, or, by the spec's own result schemas, a sampling result (`content` one
 * block or a list of them) or a roots listing. Returns the problem, or `undefined`.
 */
export function checkAnswerShape(kind: QuestionKind, response: unknown): string | undefined {
  if (kind === 'elicit') return checkResponseShape(response)
  if (!isRecord(response)) return 'expected an object'
  if (kind === 'roots') {
    const problem = specProblem('ListRootsResult', response)
    return problem && `expected { roots: [{ uri: "file://…", name? }] } (${problem})`
  }
  const problem = specProblem('CreateMessageResultWithTools', response)
  return problem && `expected a sampling result { role, content, model } (${problem})`
}
