import { ownValue, setOwn } from '../common/own'
import { isRecord } from '../common/is-record'
import { logUnavailableDetail, McpStoreUnavailableError } from '../common/store/store'
import { UrlElicitationRequiredError } from '@modelcontextprotocol/server'
import type { CreateMessageRequestParams, CreateMessageResultWithTools, Root } from '@modelcontextprotocol/server'
import { McpElicitationError } from './error'
import { askLegacy, askUntilValid } from './legacy'
import type { WaitOptions } from './legacy'
import { askModern, askReplay, questionDigest } from './modern'
import { emitAsked } from './events'
import { FAST_DECLINE_MS, formQuestion, rootsQuestion, sampleQuestion, urlQuestion } from './question'
import type { Question, Verdict } from './question'
import { readElicitResult } from './responses'
import type { ElicitationRun } from './run'
import { formAnswerError, formSchemaOf, parseAnswer, readForm } from './schema'
import { formSchemaForRevision } from './schema/revision'
import type { FormNode, FormOutput, FormShape } from './schema'
import { runGuardedStep } from './replay-guard'
import { checkElicitationUrl } from './url'
import { openPage, runPageStep } from './page/flow'
import type { PageFlow } from './page/flow'
import { forgetUrlElicitation, rememberUrlElicitation } from './url-completion'

/** The person's answer to a form. `content` exists only on accept, typed from the shape. */
export type McpFormResult<S extends FormShape> =
  | { action: 'accept', content: FormOutput<S>, via?: McpAnswerVia }
  | { action: 'decline' | 'cancel', content?: undefined, via?: McpAnswerVia }

/** The person's answer to a URL-mode request. `elicitationId` is set on legacy sessions. */
export interface McpUrlResult {
  action: 'accept' | 'decline' | 'cancel'
  elicitationId?: string
  /** `'page'` when the person answered on the app's page; absent when the client's dialog answered (or on a `fallback`). */
  via?: McpAnswerVia
}

/**
 * Whether a question may wait on the app's page when the client cannot show it.
 *
 * @example
 * ```ts
 * await elicit.form({ message: 'Deploy?', schema, page: false, fallback: { action: 'decline' } })
 * ```
 */
export interface PageOptions {
  /**
   * `false`: never send this question to the app's page; a client that cannot show it gets the
   * `fallback`, or `'unsupported'`. Default: the page, where one is available (see the
   * elicitation guide, "When the client cannot ask").
   */
  page?: boolean
}

/** Options every question takes. */
export interface McpAskOptions extends WaitOptions, PageOptions {
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
  /** Returned instead of asking when the client cannot show forms and the app's page cannot stand in (instead of an `'unsupported'` error). */
  fallback?: McpFormResult<S>
  /**
   * A consent question: only a person may answer it. On the app's page it needs a signed-in
   * person (`mcp:auth`), unless `mcp.elicitation.page.consentWithLinkOnly`; `confirm()` is one.
   */
  consent?: boolean
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
 * How an answer reached the handler when not through the client's own dialog: `'page'`, the
 * app's page (the client could not show the question). Absent on a result: the client's dialog.
 *
 * @example
 * ```ts
 * if (r.via === 'page') console.info('answered on the app\'s page')
 * ```
 */
export type McpAnswerVia = 'page'

/**
 * The page a question of `mode` waits on, when it does: the client cannot show the mode, the run
 * has a page, the question did not opt out, and a consent question has a principal to check (or
 * the app allowed consent on a link alone).
 */
function pageFor(run: ElicitationRun, mode: McpAskMode, question: Question<unknown>, options: PageOptions): PageFlow | undefined {
  const page = run.page
  if (!page || run.parked || options.page === false || (mode !== 'form' && mode !== 'url')) return undefined
  if (question.consent && page.principal === undefined && !run.config.elicitation.page.consentWithLinkOnly) return undefined
  return page
}

/**
 * Asks `question` in the run's era and says how the answer came. When the client lacks `mode`:
 * a run with a page keeps a form or URL question for the app's page (the call ends with its
 * link); else legacy throws `'unsupported'`, and modern asks anyway, so the SDK answers HTTP 400
 * `-32021` naming the missing capability. A parked run (a task) has no round to end, so it
 * throws as legacy does.
 */
async function askVia<R>(run: ElicitationRun, key: string, mode: McpAskMode, question: Question<R>, options: WaitOptions & PageOptions & { beforePage?: () => void }): Promise<{ value: R, via?: McpAnswerVia }> {
  const supported = supportsMode(run, mode)
  let page = pageFor(run, mode, question, options)
  if (page) {
    // An answer kept by an earlier call of this binding (through the page, or the client's own
    // dialog before the call ended on another question) is not asked again.
    try {
      await openPage(run, page)
    }
    catch (error) {
      if (!(error instanceof McpStoreUnavailableError)) throw error
      logUnavailableDetail(error)
      // The client's own dialog needs no store: it asks as before. Only the page cannot.
      if (!supported) throw new McpElicitationError('unavailable', `The question could not be kept for the app's page: ${error.message}.`, { cause: error })
      page = undefined
    }
  }
  if (page) {
    // Asked on the page by an earlier call (the client could not, or declined too fast): its
    // answer is there, not in the client's dialog.
    const onPage = ownValue(page.replay.state?.asked ?? {}, key)?.q === questionDigest(question)
    if (!supported || onPage) {
      options.beforePage?.()
      page.timeoutMs = Math.max(page.timeoutMs, options.timeout ?? run.config.elicitation.timeoutMs)
      const outcome = askReplay(run, page.replay, key, question)
      emitAsked(run, key, question, outcome)
      return { value: await outcome, via: 'page' }
    }
    const earlier = ownValue(page.replay.answers, key)
    if (earlier && earlier.q === questionDigest(question)) {
      const verdict = question.interpret(earlier.r)
      if (verdict.ok) return { value: verdict.result }
    }
  }
  if (!supported && (run.parked || !run.modern)) throw unsupported(mode)
  // A legacy page run keeps what the client's dialog answered: the call may end on a later
  // question the client cannot show, and the call made again must not ask this one twice.
  if (page && !run.modern) question = keepingAnswer(question, response => setOwn(page.replay.answers, key, { q: questionDigest(question), r: response }))
  const parked = run.parked
  let outcome: Promise<R>
  if (parked) {
    const digest = questionDigest(question)
    outcome = askUntilValid(run, key, question, (params, request, attempt) => parked.ask({ key, attempt, push: { method: question.method, params }, request, digest }))
  }
  else outcome = run.modern ? askModern(run, key, question) : askLegacy(run, key, question, options)
  emitAsked(run, key, question, outcome)
  const askedAt = Date.now()
  const value = await outcome
  // A legacy client that declined faster than a person reads: with `afterFastDecline`, the page
  // asks the person instead (the decline is not kept as the answer).
  if (page && !run.modern && !run.parked && run.config.elicitation.page.afterFastDecline && Date.now() - askedAt < FAST_DECLINE_MS && refusedAnswer(value)) {
    delete page.replay.answers[key]
    options.beforePage?.()
    page.timeoutMs = Math.max(page.timeoutMs, options.timeout ?? run.config.elicitation.timeoutMs)
    const retried = askReplay(run, page.replay, key, question)
    emitAsked(run, key, question, retried)
    return { value: await retried, via: 'page' }
  }
  return { value }
}

/** Whether an interpreted answer is a decline or a cancel. */
function refusedAnswer(value: unknown): boolean {
  return isRecord(value) && (value.action === 'decline' || value.action === 'cancel')
}

/** `question`, telling `keep` the raw answer it accepts (what an earlier answer is replayed from). */
function keepingAnswer<R>(question: Question<R>, keep: (response: unknown) => void): Question<R> {
  return {
    ...question,
    interpret: (response) => {
      const verdict = question.interpret(response)
      if (verdict.ok) keep(response)
      return verdict
    },
  }
}

function ask<R>(run: ElicitationRun, key: string, mode: McpAskMode, question: Question<R>, options: WaitOptions): Promise<R> {
  return askVia(run, key, mode, question, options).then(answer => answer.value)
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
  const resourceUri = options.view === undefined ? undefined : formViewUri(run, options.view)
  const question = { ...formQuestion(options.message, requestedSchema, response => interpretForm(form, response), formAnswerError, resourceUri), ...(options.consent && { consent: true }) }
  if (options.fallback && !supportsMode(run, 'form') && !pageFor(run, 'form', question, options)) return options.fallback
  const { value, via } = await askVia(run, key, 'form', question, options)
  return via ? { ...value, via } : value
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
  // A page run is made again too: its id is kept like a modern one's.
  const id = run.modern || run.page
    ? (typeof url === 'function' ? await runOnce(run, `url-id:${key}`, () => crypto.randomUUID()) : undefined)
    : crypto.randomUUID()
  const raw = typeof url === 'function' ? url(id ?? '') : url
  return { target: checkElicitationUrl(raw, run.config.elicitation.allowInsecureUrls), ...(id && { id }) }
}

/** `url()`: sends the person to a page (secrets, OAuth, payments) instead of a form. */
export async function askUrl(run: ElicitationRun, options: McpUrlOptions): Promise<McpUrlResult> {
  const key = nextKey(run, options.key)
  const { target, id } = await resolveUrlTarget(run, key, options.url)
  const question = urlQuestion(options.message, target, run.modern ? undefined : id, interpretAction)
  const supported = supportsMode(run, 'url')
  if (options.fallback && !supported && !pageFor(run, 'url', question, options)) return options.fallback
  // Only a question the client's own dialog shows can be completed while the call waits.
  const remembered = id !== undefined && !run.modern && supported
  if (remembered) rememberUrlElicitation(id, run)
  let action: McpUrlResult['action']
  let via: McpAnswerVia | undefined
  try {
    // A question that goes to the page is never completed while this call waits: forgotten then.
    ({ value: { action }, via } = await askVia(run, key, 'url', question, { ...options, beforePage: () => remembered && forgetUrlElicitation(id) }))
  }
  catch (error) {
    if (remembered) forgetUrlElicitation(id)
    throw error
  }
  // Only an accept can lead to a completion: the person agreed to open the page.
  if (remembered && action !== 'accept') forgetUrlElicitation(id)
  return { action, ...(id && { elicitationId: id }), ...(via && { via }) }
}

/** `requireUrl()`: legacy raises the spec's `-32042`; modern and tasks ask like `url()`. */
export async function requireUrl(run: ElicitationRun, options: Omit<McpUrlOptions, 'fallback'>): Promise<McpUrlResult> {
  if (run.modern || run.parked || (run.page && !supportsMode(run, 'url'))) return askUrl(run, options)
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
  if (!modern && !run.page) return step()
  // Wrapped so that a step returning nothing is still remembered as done.
  const done = modern && ownValue(modern.steps, key)
  if (done) return done.v as T
  const checked = async () => {
    const value = await step()
    if (value !== undefined && JSON.stringify(value) === undefined) {
      throw new McpElicitationError('invalid-schema', `once("${key}"): the step's result is not JSON-serialisable, so it cannot be kept between rounds. Return plain data (or nothing).`)
    }
    return value
  }
  // A page run's steps are kept on the server with its questions.
  if (run.page) return runPageStep(run, run.page, key, checked)
  if (!modern) return checked()
  // From the second round on, the incoming state may be a replay of a round already served: the
  // step is claimed for this flow first. (The first round has no state to replay: a resent first
  // request is a new call.)
  const state = modern.state
  const value = state?.nonce ? await runGuardedStep(run.store, state.nonce, key, state.exp - Date.now(), checked) : await checked()
  setOwn(modern.steps, key, { v: value })
  return value
}
