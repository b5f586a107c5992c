import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { UrlElicitationRequiredError } from '@modelcontextprotocol/server'
import type { ElicitResult } from '@modelcontextprotocol/server'
import { McpElicitationError } from './error'
import { getCurrentRun } from './run'
import type { ElicitationRun } from './run'
import { pushElicitation } from './legacy'
import type { WaitOptions } from './legacy'
import { askModern } from './modern'
import type { Verdict } from './modern'
import { formAnswerError, parseFormAnswer, toFormSchema } from './schema'
import type { FormOutput, FormShape } from './schema'
import { checkElicitationUrl } from './url'
import { rememberUrlElicitation } from './url-completion'

/** The person's answer to a form. `content` exists only on accept, typed from the shape. */
export type FormResult<S extends FormShape> =
  | { action: 'accept', content: FormOutput<S> }
  | { action: 'decline' | 'cancel', content?: undefined }

/** The person's answer to a URL-mode request. `elicitationId` is set on legacy sessions. */
export interface UrlResult {
  action: 'accept' | 'decline' | 'cancel'
  elicitationId?: string
}

interface AskOptions extends WaitOptions {
  /** Stable id of this question (the `inputRequests` key on modern). Default: its call order. */
  key?: string
}

/** Options of {@link McpElicitation.form}. */
export interface FormOptions<S extends FormShape> extends AskOptions {
  message: string
  /** A Zod raw shape of flat fields; see the elicitation guide for what converts. */
  schema: S
  /** Allow fields that look like secrets (password, token, card…). The spec forbids them: use `url()`. */
  allowSensitive?: boolean
  /** Returned instead of asking when the client cannot show forms (instead of an `'unsupported'` error). */
  fallback?: FormResult<S>
}

/** Options of {@link McpElicitation.url}. */
export interface UrlOptions extends AskOptions {
  message: string
  /** https (or http on localhost) without credentials or personal data. */
  url: string | URL
  /** Returned instead of asking when the client cannot open URLs. */
  fallback?: UrlResult
}

/** Options of {@link McpElicitation.confirm}. */
export interface ConfirmOptions extends AskOptions {
  /** Returned instead of asking when the client cannot show forms. */
  fallback?: boolean
}

/** What `useMcpElicitation()` returns. */
export interface McpElicitation {
  form: <S extends FormShape>(options: FormOptions<S>) => Promise<FormResult<S>>
  url: (options: UrlOptions) => Promise<UrlResult>
  confirm: (message: string, options?: ConfirmOptions) => Promise<boolean>
  supports: (mode: 'form' | 'url') => boolean
  requireUrl: (options: Omit<UrlOptions, 'fallback'>) => Promise<UrlResult>
  once: <T>(key: string, step: () => T | Promise<T>) => Promise<T>
}

const CONFIRM_SHAPE = { confirm: z.boolean().meta({ title: 'Confirm' }) }

function supportsMode(run: ElicitationRun, mode: 'form' | 'url'): boolean {
  const declared = run.capabilities?.elicitation
  if (!declared) return false
  // An empty `elicitation: {}` is the 2025-06-18 way of saying "forms".
  if (mode === 'form') return declared.form !== undefined || Object.keys(declared).length === 0
  return declared.url !== undefined
}

function nextKey(run: ElicitationRun, key: string | undefined): string {
  const index = run.calls++
  return key ?? `q${index}`
}

function unsupported(mode: 'form' | 'url'): McpElicitationError {
  return new McpElicitationError('unsupported', `This client did not declare elicitation ${mode} mode, so it cannot be asked. Check \`supports('${mode}')\` first, or pass a \`fallback\` to proceed without asking.`)
}

function interpretForm<S extends FormShape>(shape: S, response: ElicitResult): Verdict<FormResult<S>> {
  if (response.action !== 'accept') return { ok: true, result: { action: response.action } }
  const parsed = parseFormAnswer(shape, response.content ?? {})
  return parsed.ok ? { ok: true, result: { action: 'accept', content: parsed.value } } : { ok: false, issues: parsed.issues }
}

async function form<S extends FormShape>(run: ElicitationRun, options: FormOptions<S>): Promise<FormResult<S>> {
  const key = nextKey(run, options.key)
  const requestedSchema = toFormSchema(options.schema, { allowSensitive: options.allowSensitive })
  const params = { message: options.message, requestedSchema }
  if (!supportsMode(run, 'form')) {
    if (options.fallback) return options.fallback
    // Modern: asking anyway lets the SDK answer HTTP 400 -32021 with the missing capability.
    if (!run.modern) throw unsupported('form')
  }
  if (run.modern) return askModern(run, key, { mode: 'form', ...params }, response => interpretForm(options.schema, response))
  const verdict = interpretForm(options.schema, await pushElicitation(run, params, options))
  if (!verdict.ok) throw formAnswerError(verdict.issues)
  return verdict.result
}

async function url(run: ElicitationRun, options: UrlOptions): Promise<UrlResult> {
  const key = nextKey(run, options.key)
  const target = checkElicitationUrl(options.url, run.config.elicitation.allowInsecureUrls)
  if (!supportsMode(run, 'url')) {
    if (options.fallback) return options.fallback
    if (!run.modern) throw unsupported('url')
  }
  if (run.modern) return askModern(run, key, { mode: 'url', message: options.message, url: target }, response => ({ ok: true, result: { action: response.action } }))
  const elicitationId = randomUUID()
  rememberUrlElicitation(elicitationId, run)
  const response = await pushElicitation(run, { mode: 'url', message: options.message, url: target, elicitationId }, options)
  return { action: response.action, elicitationId }
}

async function requireUrl(run: ElicitationRun, options: Omit<UrlOptions, 'fallback'>): Promise<UrlResult> {
  if (run.modern) return url(run, options)
  nextKey(run, options.key)
  const target = checkElicitationUrl(options.url, run.config.elicitation.allowInsecureUrls)
  if (!supportsMode(run, 'url')) throw unsupported('url')
  const elicitationId = randomUUID()
  rememberUrlElicitation(elicitationId, run)
  throw new UrlElicitationRequiredError([{ mode: 'url', message: options.message, url: target, elicitationId }])
}

/**
 * Runs a side effect once per tool call, in both eras. On modern (2026-07-28) the handler re-runs
 * from the top on every round; the step's JSON result is kept in the signed `requestState`, so
 * later rounds get it back without running the step again. The value travels through the client:
 * keep it small and free of secrets.
 */
async function once<T>(run: ElicitationRun, key: string, step: () => T | Promise<T>): Promise<T> {
  const modern = run.modern
  if (!modern) return step()
  if (key in modern.steps) return modern.steps[key] as T
  const value = await step()
  if (value !== undefined && JSON.stringify(value) === undefined) {
    throw new McpElicitationError('invalid-schema', `once("${key}"): the step's result is not JSON-serialisable, so it cannot be kept between rounds. Return plain data (or nothing).`)
  }
  modern.steps[key] = value
  return value
}

/**
 * Asks the person in front of the MCP client for input, from inside a tool, resource or prompt
 * handler. The same code serves legacy clients (the question is pushed on the open stream) and
 * modern 2026-07-28 clients (the round ends with `input_required` and the handler re-runs on the
 * retry, getting the answer) — see the elicitation guide for what re-runs.
 *
 * @example
 * ```ts
 * export default defineMcpTool({
 *   inputSchema: { name: z.string() },
 *   async handler({ name }) {
 *     const elicit = useMcpElicitation()
 *     const r = await elicit.form({ message: `Channel for ${name}?`, schema: { channel: z.enum(['stable', 'beta']) } })
 *     if (r.action !== 'accept') return `Cancelled (${r.action}).`
 *     if (!(await elicit.confirm(`Release ${name} on ${r.content.channel}?`))) return 'Not confirmed.'
 *     return `Released ${name} on ${r.content.channel}`
 *   },
 * })
 * ```
 */
export function useMcpElicitation(): McpElicitation {
  const run = getCurrentRun()
  if (!run) {
    throw new McpElicitationError('outside-handler', 'useMcpElicitation() was called outside an MCP tool, resource or prompt handler. Call it inside the `handler` function: it needs the request being served.')
  }
  return {
    form: options => form(run, options),
    url: options => url(run, options),
    confirm: async (message, options = {}) => {
      const { fallback, ...rest } = options
      const result = await form(run, {
        ...rest,
        message,
        schema: CONFIRM_SHAPE,
        fallback: fallback === undefined ? undefined : (fallback ? { action: 'accept', content: { confirm: true } } : { action: 'decline' }),
      })
      return result.action === 'accept' && result.content.confirm
    },
    supports: mode => supportsMode(run, mode),
    requireUrl: options => requireUrl(run, options),
    once: (key, step) => once(run, key, step),
  }
}
