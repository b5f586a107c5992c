/**
 * Questions kept for the app's own page. A client that cannot show a form or a URL question (most
 * hosts today) still gets it asked: the question waits on the server, the call ends with a tool
 * result that gives the person a link, and the same call made again finds the answer and goes on
 * from where it asked. It is a modern flow whose state the server keeps instead of the client:
 * the handler re-runs from the top, answered questions and `once()` steps are replayed.
 *
 * What a page run is bound to: the endpoint, the caller (principal, else legacy session), the
 * tool and its arguments (`callBindingOf`). The binding ends when the handler finishes: a later
 * identical call starts afresh. Knows no HTTP: the page itself is served by `page/` at the top of
 * the house, through the functions at the end of this file.
 */
import type { CallToolResult } from '@modelcontextprotocol/server'
import { encodeBase64Url } from '../../common/base64url'
import { isRecord } from '../../common/is-record'
import { ownValue, setOwn } from '../../common/own'
import type { McpStateStore } from '../../common/store/store'
import { publicBaseOf } from '../../common/config'
import { McpElicitationError } from '../error'
import { runGuardedStep } from '../replay-guard'
import type { ElicitationRun } from '../run'
import type { PageAsked, PageFlow, PageQuestion, PageRecord } from './types'
import type { ModernFlowState } from '../state'
import { digestJson } from '../state'
import { bindingOf, callerOf } from './binding'

/** How long an answered page waits for the call made again, past its question's deadline if need be. */
const ANSWERED_GRACE_MS = 10 * 60_000

/** The key, in a result's `_meta`, of the question the client could not show. */
export const PAGE_META_KEY = 'nuxt-mcp-elicitation/question'

/** The path the page is served at, under the app's base URL: `<origin><base>_mcp/question/<token>`. */
export const PAGE_PATH = '_mcp/question/'

export type { PageAsked, PageFlow, PageQuestion, PageRecord } from './types'

/**
 * Where a question's links point: the origin of the configured public URL (never the request's
 * `Host`, which a client may set), the app's base URL and {@link PAGE_PATH}; `undefined` when no
 * public URL is set, so no link can be made.
 *
 * @example
 * ```ts
 * pageLinkBase('https://app.example.com', '/') // 'https://app.example.com/_mcp/question/'
 * pageLinkBase('https://host.example/app1/', '/') // 'https://host.example/app1/_mcp/question/' (behind a proxy's prefix)
 * ```
 */
export function pageLinkBase(publicUrl: string, baseURL: string): string | undefined {
  const base = publicBaseOf(publicUrl, baseURL)
  return base === undefined ? undefined : `${base}/${PAGE_PATH}`
}




/**
 * What {@link pageFlowOf} needs of the tool being called.
 *
 * @example
 * ```ts
 * const call: PageCall = { tool: 'deploy', arguments: { env: 'prod' }, outputSchema: false, endpointKey: '', linkBase: 'https://app.example.com/_mcp/question/', identifiesPeople: () => true }
 * ```
 */
export interface PageCall {
  tool: string
  arguments: unknown
  outputSchema: boolean
  /** The endpoint's key (`server/mcp/<key>/`), empty for the default one. */
  endpointKey: string
  /** Where links point: the configured public origin, the base URL and {@link PAGE_PATH} ({@link pageLinkBase}). */
  linkBase: string
  /** Whether an `mcp:auth` hook listens, which can name the person in a browser (a bearer token never reaches one). */
  identifiesPeople: () => boolean
}

/**
 * Whether the app's page can stand in for this client: on, a public URL to link to, a client that
 * lacks a mode, and a caller a later call can be matched to. `undefined` otherwise: the call is
 * served as before (`fallback`, `unsupported`, `-32021`).
 *
 * @example
 * ```ts
 * run.page = pageFlowOf(run, { tool: 'deploy', arguments: args, outputSchema: false, endpointKey: '', linkBase: 'https://app.example.com/_mcp/question/', identifiesPeople: () => true })
 * ```
 */
export function pageFlowOf(run: ElicitationRun, call: PageCall): PageFlow | undefined {
  const { page } = run.config.elicitation
  if (!page.enabled || run.parked) return undefined
  const declared = run.capabilities?.elicitation
  const hasForm = declared !== undefined && (declared.form !== undefined || Object.keys(declared).length === 0)
  // A client that can show both modes needs the page only to stand in after a decline too fast
  // for a person (`afterFastDecline`).
  if (hasForm && declared?.url !== undefined && !page.afterFastDecline) return undefined
  const caller = callerOf(run.scope)
  if (caller === undefined) return undefined
  // A principal's page is shown only to that principal: without a hook that can name them in a
  // browser (OAuth alone), nobody could answer it, so the question keeps its fallback instead.
  if (run.scope.principal !== undefined && !call.identifiesPeople()) return undefined
  const modern = run.modern
  return {
    caller,
    ...(run.scope.principal !== undefined && { principal: run.scope.principal }),
    tool: call.tool,
    arguments: call.arguments,
    linkBase: call.linkBase,
    endpointKey: call.endpointKey,
    outputSchema: call.outputSchema,
    // A modern run shares its answers and steps with the page: both rounds carry them all.
    replay: { state: undefined, responses: {}, answers: modern?.answers ?? {}, steps: modern?.steps ?? {}, pending: new Map(), onPending: () => {} },
    timeoutMs: 0,
  }
}

const recordKey = (id: string) => `page:rec:${id}`
const bindKey = (binding: string) => `page:bind:${binding}`

/**
 * The binding of a page run, digested when first used: most calls of a client that cannot ask
 * never ask, and pay nothing for it.
 *
 * @example
 * ```ts
 * await run.store.get(`page:bind:${pageBindingOf(run, page)}`)
 * ```
 */
export function pageBindingOf(run: ElicitationRun, page: PageFlow): string {
  return page.binding ??= bindingOf(run.scope.route, page.caller, page.tool, page.arguments)
}
const answersKey = (id: string, round: number) => `page:ans:${id}:${round}`
const tookKey = (id: string, round: number) => `page:took:${id}:${round}`

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined
  try {
    return JSON.parse(text) as unknown
  }
  catch {
    return undefined
  }
}

/** Whether a value read back is a record this module wrote: what the store holds is not trusted blindly. */
function isPageRecord(value: unknown): value is PageRecord {
  return isRecord(value) && typeof value.id === 'string' && typeof value.bind === 'string' && typeof value.nonce === 'string'
    && typeof value.round === 'number' && typeof value.exp === 'number' && typeof value.slot === 'string'
    && typeof value.tool === 'string' && typeof value.route === 'string'
    && isRecord(value.asked) && isRecord(value.answers) && isRecord(value.steps)
}

function readRecord(text: string | undefined): PageRecord | undefined {
  const value = parseJson(text)
  return isPageRecord(value) ? value : undefined
}

/**
 * Finds what an earlier call of the same binding left, once per run: its answers, its `once()`
 * results, and the answers given on the page since.
 *
 * @example
 * ```ts
 * await openPage(run, page)
 * ```
 */
export function openPage(run: ElicitationRun, page: PageFlow): Promise<void> {
  return page.opened ??= (async () => {
    const id = await run.store.get(bindKey(pageBindingOf(run, page)))
    if (id === undefined) return
    const record = readRecord(await run.store.get(recordKey(id)))
    if (!record || record.bind !== pageBindingOf(run, page) || record.exp <= Date.now()) return
    page.record = record
    const { replay } = page
    for (const [key, answer] of Object.entries(record.answers)) if (!ownValue(replay.answers, key)) setOwn(replay.answers, key, answer)
    for (const [key, step] of Object.entries(record.steps)) if (!ownValue(replay.steps, key)) setOwn(replay.steps, key, step)
    const asked: ModernFlowState['asked'] = {}
    for (const [key, entry] of Object.entries(record.asked)) setOwn(asked, key, { q: entry.q, n: entry.n, k: entry.k })
    replay.state = { exp: record.exp, bind: record.bind, answers: record.answers, asked, steps: record.steps, nonce: record.nonce }
    const responses = parseJson(await run.store.get(answersKey(record.id, record.round)))
    if (isRecord(responses)) replay.responses = responses
  })()
}

/**
 * A `once()` step of a page run: kept with the run's record, so the call made again after the
 * page was answered does not run it twice (claimed in the store, as a modern replay's is).
 *
 * @example
 * ```ts
 * const receipt = await runPageStep(run, page, 'charge', () => charge())
 * ```
 */
export async function runPageStep<T>(run: ElicitationRun, page: PageFlow, key: string, step: () => Promise<T>): Promise<T> {
  await openPage(run, page)
  const done = ownValue(page.replay.steps, key)
  if (done) return done.v as T
  // The flow's id: the kept record's, else a signed modern state's (so a resent round is still
  // guarded as before), else one this call starts.
  const nonce = page.record?.nonce ?? (page.nonce ??= run.modern?.state?.nonce ?? crypto.randomUUID())
  const ttlMs = Math.max(page.record ? page.record.exp - Date.now() : 0, run.config.elicitation.timeoutMs)
  const value = await runGuardedStep(run.store, `page:${nonce}`, key, ttlMs, step)
  setOwn(page.replay.steps, key, { v: value })
  return value
}

function sameQuestions(a: Record<string, PageAsked>, b: Record<string, PageAsked>): boolean {
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every(key => ownValue(b, key)?.q === a[key]!.q && ownValue(b, key)?.n === a[key]!.n)
}

/** A token for a link: 32 random bytes, and the endpoint's key after a dot (base64url has none). */
function newPageId(endpointKey: string): string {
  const random = encodeBase64Url(crypto.getRandomValues(new Uint8Array(32)))
  return endpointKey ? `${random}.${endpointKey}` : random
}

/** Takes one of the caller's open-question slots, or says none is free. */
async function takeSlot(run: ElicitationRun, page: PageFlow, ttlMs: number): Promise<string> {
  const max = run.config.elicitation.page.maxOpenPerCaller
  const caller = digestJson(page.caller)
  for (let index = 0; index < max; index++) {
    const slot = `page:slot:${caller}:${index}`
    if (await run.store.claim(slot, ttlMs)) return slot
  }
  throw new McpElicitationError('limit', `${max} questions of this caller already wait on the app's page (mcp.elicitation.page.maxOpenPerCaller): answer or let one expire, or raise the limit.`)
}

/**
 * Ends a page run's round: keeps its questions, answers and steps under its binding (a new round
 * only when the questions changed, so calling again before answering gives the same link and
 * asks nothing twice), and returns the tool result that sends the person to the page.
 *
 * @example
 * ```ts
 * if (page.replay.pending.size > 0) return endPageRound(run, page)
 * ```
 */
export async function endPageRound(run: ElicitationRun, page: PageFlow): Promise<CallToolResult> {
  const asked: Record<string, PageAsked> = {}
  for (const [key, pending] of page.replay.pending) setOwn(asked, key, { q: pending.q, n: pending.n, k: pending.kind, request: pending.request, ...(pending.consent && { consent: true as const }) })
  const now = Date.now()
  const earlier = page.record
  const unchanged = earlier !== undefined && sameQuestions(asked, earlier.asked)
  const ttlMs = Math.max(page.timeoutMs, 1000)
  const record: PageRecord = unchanged
    ? { ...earlier, answers: page.replay.answers, steps: page.replay.steps }
    : {
        id: earlier?.id ?? newPageId(page.endpointKey),
        bind: pageBindingOf(run, page),
        ...(page.principal !== undefined && { principal: page.principal }),
        route: run.scope.route,
        tool: page.tool,
        args: page.arguments,
        nonce: earlier?.nonce ?? page.nonce ?? crypto.randomUUID(),
        round: (earlier?.round ?? 0) + 1,
        exp: now + ttlMs,
        slot: earlier?.slot ?? await takeSlot(run, page, ttlMs),
        asked,
        answers: page.replay.answers,
        steps: page.replay.steps,
      }
  const keepMs = Math.max(record.exp - now, 1)
  await run.store.put(recordKey(record.id), JSON.stringify(record), keepMs)
  await run.store.put(bindKey(pageBindingOf(run, page)), record.id, keepMs)
  if (!unchanged && earlier) await run.store.put(earlier.slot, '1', keepMs)
  return pageResult(page, record)
}

/**
 * Ends the binding once the handler has finished: the record, the link and the caller's slot
 * go, so a later identical call starts afresh.
 *
 * @example
 * ```ts
 * if (run.page?.record) await closePage(run, run.page)
 * ```
 */
export async function closePage(run: ElicitationRun, page: PageFlow): Promise<void> {
  const record = page.record
  if (!record) return
  // The answers go too: what the person typed is kept no longer than the call needs it.
  await Promise.all([recordKey(record.id), bindKey(pageBindingOf(run, page)), record.slot, answersKey(record.id, record.round), tookKey(record.id, record.round)].map(key => run.store.delete(key)))
}

/**
 * The open questions of a kept round, as the page shows them and the result names them: the
 * modern `inputRequests` entry of each says everything.
 *
 * @example
 * ```ts
 * askedQuestionsOf(record) // [{ key: 'q0', mode: 'form', message: 'Deploy?', requestedSchema: { … } }]
 * ```
 */
export function askedQuestionsOf(record: PageRecord): PageQuestion[] {
  return Object.entries(record.asked).map(([key, asked]) => {
    const params: Record<string, unknown> = isRecord(asked.request.params) ? asked.request.params : {}
    const message = typeof params.message === 'string' ? params.message : ''
    const consent = asked.consent === true ? { consent: true } : {}
    if (params.mode === 'url') return { key, mode: 'url', message, ...(typeof params.url === 'string' && { url: params.url }), ...consent }
    return { key, mode: 'form', message, ...(isRecord(params.requestedSchema) && { requestedSchema: params.requestedSchema }), ...consent }
  })
}

/**
 * The tool result of a round that waits on the page: in words for the model (what is needed, the
 * link for the person, call again with the same arguments) and under {@link PAGE_META_KEY} for
 * clients that read it. Never in `structuredContent`: a tool's `outputSchema` would refuse it.
 *
 * @example
 * ```ts
 * pageResult(page, record).content[0].text // 'deploy needs an answer from the person …'
 * ```
 */
export function pageResult(page: PageFlow, record: PageRecord): CallToolResult {
  const url = `${page.linkBase}${record.id}`
  const questions = askedQuestionsOf(record).map(({ key, mode, message }) => ({ key, mode, message }))
  const expiresAt = new Date(record.exp).toISOString()
  const asked = questions.map(question => `- ${question.message}`).join('\n')
  const text = [
    `${record.tool} needs an answer from the person before it can go on. This client cannot show the question, so it waits on a page:`,
    asked,
    `Give the person this link to answer it (it works until ${expiresAt}): ${url}`,
    `Once they say they have answered, call ${record.tool} again with exactly the same arguments: it goes on from where it asked. Do not answer the question yourself, and do not open the link.`,
  ].join('\n\n')
  return {
    content: [{ type: 'text', text }],
    _meta: { [PAGE_META_KEY]: { url, expiresAt, questions, call: { tool: record.tool, sameArguments: true } } },
    ...(page.outputSchema && { isError: true }),
  }
}

/**
 * A page found by the link's token: its record, and whether its round was answered.
 *
 * @example
 * ```ts
 * const open: OpenPage = { record, answered: false }
 * ```
 */
export interface OpenPage {
  record: PageRecord
  /** Whether this round was answered already (a page is answered once). */
  answered: boolean
}

/**
 * The endpoint key a link's token names (after the dot), empty for the default endpoint.
 *
 * @example
 * ```ts
 * endpointKeyOfToken('Zk3…Q.admin') // 'admin'
 * ```
 */
export function endpointKeyOfToken(token: string): string {
  const dot = token.indexOf('.')
  return dot < 0 ? '' : token.slice(dot + 1)
}

/**
 * The open page a link's token names, or `undefined` when there is none (unknown, answered and
 * finished, or expired).
 *
 * @example
 * ```ts
 * const open = await findPage(store, token)
 * ```
 */
export async function findPage(store: McpStateStore, token: string): Promise<OpenPage | undefined> {
  const record = readRecord(await store.get(recordKey(token)))
  if (!record || record.id !== token || record.exp <= Date.now()) return undefined
  const answered = await store.get(answersKey(record.id, record.round)) !== undefined
  return { record, answered }
}

/**
 * Keeps the person's answers to a page's round, once: of two submissions (two tabs, two
 * instances) exactly one is taken; the other is told the page was answered.
 *
 * @example
 * ```ts
 * if (!await answerPage(store, open.record, responses)) return notice('answered')
 * ```
 */
export async function answerPage(store: McpStateStore, record: PageRecord, responses: Record<string, unknown>): Promise<boolean> {
  // An answer given just before the deadline waits a while for the call made again, which the
  // person has yet to ask for: the record, its binding and the answer are kept that much longer.
  const exp = Math.max(record.exp, Date.now() + ANSWERED_GRACE_MS)
  const keepMs = exp - Date.now()
  if (!await store.claim(tookKey(record.id, record.round), keepMs)) return false
  try {
    await store.put(answersKey(record.id, record.round), JSON.stringify(responses), keepMs)
  }
  catch (error) {
    // Not kept: the round is free to be answered again, once the store is back.
    await store.delete(tookKey(record.id, record.round)).catch(() => undefined)
    throw error
  }
  if (exp > record.exp) {
    await store.put(recordKey(record.id), JSON.stringify({ ...record, exp }), keepMs)
    await store.put(bindKey(record.bind), record.id, keepMs)
  }
  return true
}
