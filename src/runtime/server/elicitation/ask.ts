import { ownValue, setOwn } from '../common/own'
import { UrlElicitationRequiredError } from '@modelcontextprotocol/server'
import type { CreateMessageRequestParams, CreateMessageResultWithTools, Root } from '@modelcontextprotocol/server'
import { McpElicitationError } from './error'
import { askLegacy, askUntilValid } from './legacy'
import type { WaitOptions } from './legacy'
import { askModern, questionDigest } from './modern'
import { emitAsked } from './events'
import { formQuestion, rootsQuestion, sampleQuestion, urlQuestion } from './question'
import type { Question, Verdict } from './question'
import { readElicitResult } from './responses'
import type { ElicitationRun } from './run'
import { formAnswerError, formSchemaOf, parseAnswer, readForm } from './schema'
import { formSchemaForRevision } from './schema/revision'
import type { FormNode, FormOutput, FormShape } from './schema'
import { runGuardedStep } from './replay-guard'
import { checkElicitationUrl } from './url'
import { forgetUrlElicitation, rememberUrlElicitation } from './url-completion'

/** The person's answer to a form. `content` exists only on accept, typed from the shape. */
export type McpFormResult<S extends FormShape> =
  | { action: 'accept', content: FormOutput<S> }
  | { action: 'decline' | 'cancel', content?: undefined }

/** The person's answer to a URL-mode request. `elicitationId` is set on legacy sessions. */
export interface McpUrlResult {
  action: 'accept' | 'decline' | 'cancel'
  elicitationId?: string
}

/** Options every question takes. */
export interface McpAskOptions extends WaitOptions {
  /** Stable id of this question (the `inputRequests` key on modern). Default: its call order. */
  key?: string
}

/** Options of `form()`. */
export interface McpFormOptions<S extends FormShape> extends McpAskOptions {
  message: string
  /** A Zod raw shape of flat fields, a `z.object`, or a Standard Schema object schema (Valibot via `toStandardJsonSchema()`, ArkType); see the elicitation guide for what converts. */
  schema: S
  /** Allow fields that look like secrets (password, token, card…). The spec forbids them: use `url()`. */
  allowSensitive?: boolean
  /** Returned instead of asking when the client cannot show forms (instead of an `'unsupported'` error). */
  fallback?: McpFormResult<S>
  /**
   * Experimental (SEP-3118, a draft): an MCP App view (`app/mcp/<name>.vue`) that renders this
   * form in hosts that support app-rendered elicitation; every other client gets the plain form.
   * The answer is validated against `schema` and typed the same way either way.
   */
  view?: string
}

/** Options of `url()`. */
export interface McpUrlOptions extends McpAskOptions {
  message: string
  /**
   * https (or http on localhost) without credentials or personal data. Pass a function to put
   * the flow's id in the URL (e.g. `id => \`/connect?flow=${id}\``): the page can then call
   * `completeMcpUrlElicitation(id)`. The id is the legacy `elicitationId`, and stays the same
   * across modern rounds.
   */
  url: string | URL | ((id: string) => string | URL)
  /** Returned instead of asking when the client cannot open URLs. */
  fallback?: McpUrlResult
}

/** What the client can be asked for: the two elicitation modes, sampling and roots. */
export type McpAskMode = 'form' | 'url' | 'sampling' | 'roots'

/** Whether THIS request's client declared `mode` (modern: its envelope; legacy: its initialize). */
export function supportsMode(run: ElicitationRun, mode: McpAskMode): boolean {
  const capabilities = run.capabilities
  if (mode === 'sampling') return capabilities?.sampling !== undefined
  if (mode === 'roots') return capabilities?.roots !== undefined
  const declared = capabilities?.elicitation
  if (!declared) return false
  // An empty `elicitation: {}` is the 2025-06-18 way of saying "forms".
  if (mode === 'form') return declared.form !== undefined || Object.keys(declared).length === 0
  return declared.url !== undefined
}

function nextKey(run: ElicitationRun, key: string | undefined): string {
  const index = run.calls++
  return key ?? `q${index}`
}

function unsupported(mode: McpAskMode): McpElicitationError {
  return new McpElicitationError('unsupported', `This client did not declare the ${mode === 'form' || mode === 'url' ? `elicitation ${mode} mode` : `${mode} capability`}, so it cannot be asked. Check \`supports('${mode}')\` first, or pass a \`fallback\` to proceed without asking.`)
}

/**
 * Asks `question` in the run's era. When the client lacks `mode`: legacy throws `'unsupported'`;
 * modern asks anyway, so the SDK answers HTTP 400 `-32021` naming the missing capability. A
 * parked run (a task) has no round to end, so it throws as legacy does.
 */
function ask<R>(run: ElicitationRun, key: string, mode: McpAskMode, question: Question<R>, options: WaitOptions): Promise<R> {
  if (!supportsMode(run, mode) && (run.parked || !run.modern)) return Promise.reject(unsupported(mode))
  const parked = run.parked
  let outcome: Promise<R>
  if (parked) {
    const digest = questionDigest(question)
    outcome = askUntilValid(run, key, question, (params, request, attempt) => parked.ask({ key, attempt, push: { method: question.method, params }, request, digest }))
  }
  else outcome = run.modern ? askModern(run, key, question) : askLegacy(run, key, question, options)
  emitAsked(run, key, question, outcome)
  return outcome
}

function interpretForm<S extends FormShape>(form: FormNode<S>, response: unknown): Verdict<McpFormResult<S>> {
  const read = readElicitResult(response)
  if (!read.ok) return { ok: false, issues: [read.problem] }
  const { action, content } = read.result
  if (action !== 'accept') return { ok: true, result: { action } }
  const parsed = parseAnswer(form, content ?? {})
  return parsed.ok ? { ok: true, result: { action: 'accept', content: parsed.value } } : { ok: false, issues: parsed.issues }
}

/** The view that renders a form for this client, or `undefined` for the plain form. */
function formViewUri(run: ElicitationRun, name: string): string | undefined {
  if (!run.formView) throw new McpElicitationError('unknown-view', `form({ view: "${name}" }) names an MCP App view, but this app has none. Add app/mcp/${name}.vue, or leave \`view\` out for the plain form.`)
  return run.formView(name)
}

/** `form()`: a flat Zod shape becomes a spec-exact form; the answer comes back validated and typed. */
export async function askForm<S extends FormShape>(run: ElicitationRun, options: McpFormOptions<S>): Promise<McpFormResult<S>> {
  const key = nextKey(run, options.key)
  // Read once into the form's node: an inline shape equal to one asked before gets that one's
  // node (its wire schema, digest and validators), and a waiting question does not keep the
  // caller's copy of shared fields.
  const form = readForm(options.schema)
  // A legacy session on an older revision gets the form as that revision can show it.
  const requestedSchema = formSchemaForRevision(formSchemaOf(form, options.allowSensitive === true), run.protocolVersion)
  if (options.fallback && !supportsMode(run, 'form')) return options.fallback
  const resourceUri = options.view === undefined ? undefined : formViewUri(run, options.view)
  const question = formQuestion(options.message, requestedSchema, response => interpretForm(form, response), formAnswerError, resourceUri)
  return ask(run, key, 'form', question, { timeout: options.timeout, signal: options.signal })
}

function interpretAction(response: unknown): Verdict<{ action: McpUrlResult['action'] }> {
  const read = readElicitResult(response)
  return read.ok ? { ok: true, result: { action: read.result.action } } : { ok: false, issues: [read.problem] }
}

/**
 * The checked target URL and the flow id: a fresh id per legacy question (its `elicitationId`);
 * on modern one kept across rounds, so the URL — part of the question — does not change.
 */
async function resolveUrlTarget(run: ElicitationRun, key: string, url: McpUrlOptions['url']): Promise<{ target: string, id?: string }> {
  const id = run.modern
    ? (typeof url === 'function' ? await runOnce(run, `url-id:${key}`, () => crypto.randomUUID()) : undefined)
    : crypto.randomUUID()
  const raw = typeof url === 'function' ? url(id ?? '') : url
  return { target: checkElicitationUrl(raw, run.config.elicitation.allowInsecureUrls), ...(id && { id }) }
}

/** `url()`: sends the person to a page (secrets, OAuth, payments) instead of a form. */
export async function askUrl(run: ElicitationRun, options: McpUrlOptions): Promise<McpUrlResult> {
  const key = nextKey(run, options.key)
  const { target, id } = await resolveUrlTarget(run, key, options.url)
  if (options.fallback && !supportsMode(run, 'url')) return options.fallback
  const remembered = id !== undefined && !run.modern
  if (remembered) rememberUrlElicitation(id, run)
  let action: McpUrlResult['action']
  try {
    ({ action } = await ask(run, key, 'url', urlQuestion(options.message, target, run.modern ? undefined : id, interpretAction), options))
  }
  catch (error) {
    if (remembered) forgetUrlElicitation(id)
    throw error
  }
  // Only an accept can lead to a completion: the person agreed to open the page.
  if (remembered && action !== 'accept') forgetUrlElicitation(id)
  return id ? { action, elicitationId: id } : { action }
}

/** `requireUrl()`: legacy raises the spec's `-32042`; modern and tasks ask like `url()`. */
export async function requireUrl(run: ElicitationRun, options: Omit<McpUrlOptions, 'fallback'>): Promise<McpUrlResult> {
  if (run.modern || run.parked) return askUrl(run, options)
  const key = nextKey(run, options.key)
  const { target, id } = await resolveUrlTarget(run, key, options.url)
  if (!supportsMode(run, 'url')) throw unsupported('url')
  const elicitationId = id ?? crypto.randomUUID()
  rememberUrlElicitation(elicitationId, run)
  throw new UrlElicitationRequiredError([{ mode: 'url', message: options.message, url: target, elicitationId }])
}

/**
 * `sample()`: asks the client's model (`sampling/createMessage`). Its `content` is one block or,
 * since 2025-11-25, a list of blocks.
 */
export function askSample(run: ElicitationRun, params: CreateMessageRequestParams, options: McpAskOptions = {}): Promise<CreateMessageResultWithTools> {
  const key = nextKey(run, options.key)
  // Checked against the spec's result schema before `interpret` runs (checkAnswerShape), so the cast only names it.
  return ask(run, key, 'sampling', sampleQuestion(params, response => ({ ok: true, result: response as CreateMessageResultWithTools })), options)
}

/** `listRoots()`: asks the client for its roots (`roots/list`). */
export async function askRoots(run: ElicitationRun, options: McpAskOptions = {}): Promise<Root[]> {
  const key = nextKey(run, options.key)
  return ask(run, key, 'roots', rootsQuestion(response => ({ ok: true, result: (response as { roots: Root[] }).roots })), options)
}

/**
 * `once()`: runs a side effect once per tool call, in both eras. On modern the handler re-runs
 * from the top on every round; the step's JSON result is kept in the signed `requestState`, so
 * later rounds get it back without running the step again. The value travels through the
 * client: keep it small and free of secrets; it comes back as JSON (a `Date` becomes a string).
 */
export async function runOnce<T>(run: ElicitationRun, key: string, step: () => T | Promise<T>): Promise<T> {
  if (run.parked) return run.parked.once(key, step)
  const modern = run.modern
  if (!modern) return step()
  // Wrapped so that a step returning nothing is still remembered as done.
  const done = ownValue(modern.steps, key)
  if (done) return done.v as T
  const checked = async () => {
    const value = await step()
    if (value !== undefined && JSON.stringify(value) === undefined) {
      throw new McpElicitationError('invalid-schema', `once("${key}"): the step's result is not JSON-serialisable, so it cannot be kept between rounds. Return plain data (or nothing).`)
    }
    return value
  }
  // From the second round on, the incoming state may be a replay of a round already served: the
  // step is claimed for this flow first. (The first round has no state to replay: a resent first
  // request is a new call.)
  const state = modern.state
  const value = state?.nonce ? await runGuardedStep(run.store, state.nonce, key, state.exp - Date.now(), checked) : await checked()
  setOwn(modern.steps, key, { v: value })
  return value
}
