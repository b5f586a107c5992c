import { readRequestedSchema } from '../../chat/elicitation/fields'
import type { McpFormField } from '../../chat/elicitation/fields'
import { initialValues } from '../../chat/elicitation/values'
import type { McpFormValue } from '../../chat/elicitation/values'
import { describeUrlTarget } from '../../chat/elicitation/url'
import { ownValue, setOwn } from '../common/own'
import { renderField } from './fields'
import { attributes, escapeHtml, renderDocument } from './html'
import { PAGE_ACTION_FIELD, PAGE_CSRF_FIELD } from './names'
import { PAGE_STYLESHEET, PAGE_STYLESHEET_HASH } from './style'

/**
 * The app's own question page, for a person whose MCP client cannot show a question (issue 50):
 * the HTML of the page and of its notices (`render.ts`, `fields.ts`, `html.ts`, `style.ts`), whether
 * a POST may be read (`post.ts`), the reading of it (`answers.ts`) and the headers it is sent with: pure functions of plain
 * data. `serve.ts` joins them to the question kept for the link (`elicitation/page/`); the route
 * (`routes/question.ts`) hands it a plain request: this folder knows no h3 or Nitro. The form is read and checked by the chat's form logic (`src/runtime/chat/elicitation/`),
 * so the page validates exactly as the host's native form does. The page runs no script at all.
 */

/**
 * One question on the page.
 *
 * @example
 * ```ts
 * const question: McpPageQuestion = { key: 'ok', mode: 'form', message: 'Deploy?', consent: true,
 *   requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } }
 * ```
 */
export interface McpPageQuestion {
  /** The question's key in the handler. */
  key: string
  mode: 'form' | 'url'
  message: string
  /** Form mode: the spec's flat `requestedSchema`. */
  requestedSchema?: Record<string, unknown>
  /** URL mode: where the person goes (only an http(s) URL without credentials becomes a link). */
  url?: string
  /** Why the last answer was refused (the question is asked again): shown above the form. */
  problem?: string
  /** A consent question (`confirm()`, or one marked as consent): the page says so plainly. */
  consent?: boolean
}

/**
 * Everything the question page shows.
 *
 * @example
 * ```ts
 * const view: McpPageView = { serverName: 'Acme', tool: 'deploy', arguments: { env: 'prod' }, questions: [question], csrf: token, expiresAt }
 * ```
 */
export interface McpPageView {
  serverName: string
  /** The tool that asks, shown. */
  tool: string
  /** The tool's arguments, shown as JSON text so the person sees what the question is for. */
  arguments: Record<string, unknown>
  /** Usually one. */
  questions: McpPageQuestion[]
  /** The CSRF token, sent back in the hidden field `_csrf`. */
  csrf: string
  /** Unix ms: shown as the deadline. */
  expiresAt: number
  /** Per question key, per field name: why the last submission was refused (field `''`: the question as a whole). */
  errors?: Record<string, Record<string, string>>
  /** Per question key, per field name: what the person sent, shown again instead of the defaults. */
  values?: Record<string, Record<string, string | string[]>>
  /** Unix ms the deadline is counted from (default `Date.now()`); tests pass a fixed one. */
  now?: number
}

/**
 * What a notice page says.
 *
 * @example
 * ```ts
 * const kind: McpPageNotice = record.answeredAt ? 'unknown' : 'answered'
 * ```
 */
export type McpPageNotice = 'answered' | 'declined' | 'expired' | 'unknown' | 'refused' | 'sign-in'

/** The longest argument text shown: past it, the JSON is cut (the page is for a person, not a dump). */
const ARGUMENTS_SHOWN = 4000

function formatArguments(args: Record<string, unknown>): string {
  let text: string
  try {
    text = JSON.stringify(args, null, 2) ?? '{}'
  }
  catch (error) {
    return `(the arguments cannot be shown: ${error instanceof Error ? error.message : String(error)})`
  }
  return text.length > ARGUMENTS_SHOWN ? `${text.slice(0, ARGUMENTS_SHOWN)}\n… (${text.length - ARGUMENTS_SHOWN} more characters not shown)` : text
}

function describeWait(ms: number): string {
  if (ms <= 0) return 'the time to answer has run out'
  const minutes = Math.round(ms / 60_000)
  if (minutes < 1) return 'in less than a minute'
  if (minutes < 90) return `in about ${minutes} minute${minutes === 1 ? '' : 's'}`
  const hours = Math.round(minutes / 60)
  if (hours < 48) return `in about ${hours} hours`
  return `in about ${Math.round(hours / 24)} days`
}

/**
 * The deadline as a person reads it, without script: the UTC time and how far away it is, as of
 * rendering.
 *
 * @example
 * ```ts
 * describePageDeadline(Date.UTC(2026, 11, 7, 23, 30), Date.UTC(2026, 11, 7, 23, 15))
 * // 'Answer before Mon, 07 Dec 2026 23:30 UTC (in about 15 minutes). After that, this link no longer works.'
 * ```
 */
export function describePageDeadline(expiresAt: number, now: number): string {
  const when = new Date(expiresAt)
  if (Number.isNaN(when.getTime())) return 'This link works for a limited time.'
  const utc = when.toUTCString().replace(/:\d{2} GMT$/, ' UTC')
  return `Answer before ${utc} (${describeWait(expiresAt - now)}). After that, this link no longer works.`
}

/**
 * A question read for the page: its fields, and why it cannot be answered when it cannot.
 *
 * @example
 * ```ts
 * const read: McpPageQuestionRead = readPageQuestion(question)
 * if (read.unreadable !== undefined) console.warn(read.unreadable)
 * ```
 */
export type McpPageQuestionRead = { fields: McpFormField[], unreadable?: undefined } | { fields: McpFormField[], unreadable: string }

/**
 * A question's fields, read by the chat's form logic: a URL question has none; a form whose
 * schema the spec does not allow cannot be answered here, only declined.
 *
 * @example
 * ```ts
 * readPageQuestion({ key: 'k', mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }).fields.length // 1
 * ```
 */
export function readPageQuestion(question: McpPageQuestion): McpPageQuestionRead {
  if (question.mode === 'url') {
    const target = describeUrlTarget(question.url ?? '')
    return target.ok ? { fields: [] } : { fields: [], unreadable: target.reason }
  }
  const read = readRequestedSchema(question.requestedSchema ?? { type: 'object', properties: {} })
  return read.ok ? { fields: read.fields } : { fields: [], unreadable: read.error }
}

/** What each field shows: what the person sent (when the page comes back refused), else its default. */
function shownValues(fields: McpFormField[], sent: Record<string, string | string[]> | undefined): Record<string, McpFormValue | undefined> {
  if (!sent) return initialValues(fields, { timeZone: 'utc' })
  const shown: Record<string, McpFormValue | undefined> = {}
  for (const field of fields) {
    const value = ownValue(sent, field.name)
    // An unticked box sends nothing: shown again unticked, whatever its default.
    setOwn(shown, field.name, field.kind === 'boolean' ? value === 'true' : value)
  }
  return shown
}

function renderUrlTarget(question: McpPageQuestion): string {
  const target = describeUrlTarget(question.url ?? '')
  if (!target.ok) return `<p class="problem" role="alert">This link cannot be opened: ${escapeHtml(target.reason)} You can only decline.</p>`
  return [
    `<p>This takes you to <strong class="host">${escapeHtml(target.host)}</strong>, in a new tab:</p>`,
    `<p><a${attributes({ href: target.href, target: '_blank', rel: 'noopener noreferrer' })}><code>${escapeHtml(target.href)}</code></a></p>`,
    target.secure ? '' : '<p class="warning">The link is not encrypted (http).</p>',
    '<p class="muted">Come back here when you have done what it asks, and press “I have done this”.</p>',
  ].join('')
}

function renderQuestion(view: McpPageView, question: McpPageQuestion, index: number): string {
  const read = readPageQuestion(question)
  const errors = view.errors ? ownValue(view.errors, question.key) : undefined
  const whole = errors ? ownValue(errors, '') : undefined
  const parts = [`<p class="message" id="q${index}-message">${escapeHtml(question.message)}</p>`]
  if (question.problem) parts.unshift(`<p class="problem" role="alert">Your last answer was not accepted: ${escapeHtml(question.problem)}</p>`)
  if (question.consent) {
    parts.push('<p class="consent"><strong>This asks for your consent.</strong> Only you can give it here: the assistant cannot answer it for you. To say no, leave the box unticked, or decline.</p>')
  }
  if (whole) parts.push(`<p class="problem" role="alert">${escapeHtml(whole)}</p>`)
  if (read.unreadable !== undefined && question.mode === 'form') {
    parts.push(`<p class="problem" role="alert">This question cannot be shown here: ${escapeHtml(read.unreadable)} You can only decline.</p>`)
  }
  else if (question.mode === 'url') {
    parts.push(renderUrlTarget(question))
  }
  else {
    const values = shownValues(read.fields, view.values ? ownValue(view.values, question.key) : undefined)
    parts.push(...read.fields.map((field, fieldIndex) => renderField(field, {
      question: index,
      index: fieldIndex,
      value: ownValue(values, field.name),
      ...(errors && ownValue(errors, field.name) !== undefined ? { error: ownValue(errors, field.name) } : {}),
    })))
  }
  return `<section class="card question"${attributes({ 'aria-labelledby': `q${index}-message`, 'data-mode': question.mode })}>${parts.join('')}</section>`
}

function countErrors(view: McpPageView): number {
  return Object.values(view.errors ?? {}).reduce((sum, fields) => sum + Object.keys(fields).length, 0)
}

function renderButtons(view: McpPageView): string {
  const answerable = view.questions.every(question => readPageQuestion(question).unreadable === undefined)
  const allUrl = view.questions.length > 0 && view.questions.every(question => question.mode === 'url')
  // Accept comes first: pressing Enter in a field submits with the first button.
  const accept = answerable ? `<button type="submit" class="primary"${attributes({ name: PAGE_ACTION_FIELD, value: 'accept' })}>${allUrl ? 'I have done this' : 'Send answer'}</button>` : ''
  // `formnovalidate`: declining needs no valid field, so the browser's checks must not stop it.
  const decline = `<button type="submit" formnovalidate${attributes({ name: PAGE_ACTION_FIELD, value: 'decline' })}>Decline</button>`
  return `<div class="actions">${accept}${decline}</div>`
}

/**
 * The whole question page: who asks and for what (the server, the tool, its arguments as text),
 * each question (its fields built from `requestedSchema`, or a URL question's link and host), the
 * deadline, and one `<form method="post">` back to the same URL with the hidden `_csrf` and the
 * buttons `_action=accept` / `_action=decline`. Every string from the view is escaped.
 *
 * @example
 * ```ts
 * const html = renderQuestionPage({
 *   serverName: 'Acme', tool: 'deploy', arguments: { env: 'prod' }, csrf: token, expiresAt: Date.now() + 600_000,
 *   questions: [{ key: 'ok', mode: 'form', message: 'Deploy to prod?', consent: true,
 *     requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Yes, deploy' } } } }],
 * })
 * ```
 */
export function renderQuestionPage(view: McpPageView): string {
  const errorCount = countErrors(view)
  const hasRequired = view.questions.some(question => question.mode === 'form' && readPageQuestion(question).fields.some(field => field.required))
  const body = [
    '<main>',
    `<p class="muted">${escapeHtml(view.serverName)}</p>`,
    `<h1>The tool <code>${escapeHtml(view.tool)}</code> needs your answer</h1>`,
    '<p class="muted">Your assistant called this tool, and it needs something only you can give. Answer here; then go back to the chat.</p>',
    '<details class="card" open><summary>What the tool was called with</summary>',
    `<pre>${escapeHtml(formatArguments(view.arguments))}</pre></details>`,
    errorCount > 0 ? `<p class="problem summary" role="alert">${errorCount === 1 ? 'One field needs' : `${errorCount} fields need`} your attention.</p>` : '',
    '<form method="post">',
    `<input${attributes({ type: 'hidden', name: PAGE_CSRF_FIELD, value: view.csrf })}>`,
    hasRequired ? '<p class="legend">Fields marked <span aria-hidden="true">*</span><span class="visually-hidden">with an asterisk</span> are required.</p>' : '',
    ...view.questions.map((question, index) => renderQuestion(view, question, index)),
    `<p class="muted deadline"><time${attributes({ datetime: Number.isFinite(view.expiresAt) ? new Date(view.expiresAt).toISOString() : undefined })}>${escapeHtml(describePageDeadline(view.expiresAt, view.now ?? Date.now()))}</time></p>`,
    renderButtons(view),
    '</form>',
    '</main>',
  ].join('\n')
  return renderDocument({ title: `${view.serverName}: a question for you`, style: PAGE_STYLESHEET, body })
}

const NOTICES: Record<McpPageNotice, { title: string, text: string, status: number }> = {
  'answered': { title: 'Thank you: your answer was sent', text: 'Go back to the chat. The assistant calls the tool again and goes on from there with your answer; if it does not, tell it you have answered. You can close this page.', status: 200 },
  'declined': { title: 'You declined', text: 'Go back to the chat. The assistant learns that you declined when it calls the tool again. You can close this page.', status: 200 },
  'expired': { title: 'This link has expired', text: 'The time to answer has run out. Ask the assistant to try again: it gives you a new link.', status: 410 },
  'unknown': { title: 'This link does not lead to a question', text: 'It may have been answered already, or copied incompletely. Ask the assistant for the link again.', status: 404 },
  'refused': { title: 'The answer was not accepted', text: 'Open the link from the chat again and answer there.', status: 403 },
  'sign-in': { title: 'Sign in to answer', text: 'This question is for a signed-in person: sign in with the same account the assistant uses.', status: 401 },
}

/**
 * The HTTP status that goes with a notice: 200 for answered and declined, 410 expired, 404
 * unknown, 403 refused, 401 sign-in.
 *
 * @example
 * ```ts
 * pageNoticeStatus('expired') // 410
 * ```
 */
export function pageNoticeStatus(kind: McpPageNotice): number {
  return NOTICES[kind].status
}

/**
 * A link a notice may offer (sign-in): a path on this origin, or an http(s) URL.
 *
 * @example
 * ```ts
 * const link: McpPageNoticeLink = { href: '/auth/login?next=%2F_mcp%2Fq%2Fabc', label: 'Sign in' }
 * ```
 */
export interface McpPageNoticeLink { href: string, label: string }

function isSafeHref(href: string): boolean {
  if (/^\/(?![/\\])/.test(href)) return true
  try {
    const url = new URL(href)
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password
  }
  catch {
    return false
  }
}

/**
 * A whole notice page: the outcome (`answered` says what happens next: back to the chat, where the
 * assistant calls the tool again), `detail` as text below it, and an optional link (sign-in); a
 * link that is not a path on this origin or an http(s) URL is left out.
 *
 * @example
 * ```ts
 * renderPageNotice('expired', 'The question "deploy" expired at 23:30 UTC.', 'Acme')
 * renderPageNotice('sign-in', 'Sign in as the account that asked.', 'Acme', { href: '/auth/login?next=…', label: 'Sign in' })
 * ```
 */
export function renderPageNotice(kind: McpPageNotice, detail: string, serverName: string, link?: McpPageNoticeLink): string {
  const notice = NOTICES[kind]
  const body = [
    `<main class="notice"${attributes({ 'data-notice': kind })}>`,
    `<p class="muted">${escapeHtml(serverName)}</p>`,
    `<h1>${escapeHtml(notice.title)}</h1>`,
    `<p>${escapeHtml(notice.text)}</p>`,
    detail ? `<p class="card message">${escapeHtml(detail)}</p>` : '',
    link && isSafeHref(link.href) ? `<p class="actions"><a class="button primary"${attributes({ href: link.href, rel: 'noopener noreferrer' })}>${escapeHtml(link.label)}</a></p>` : '',
    '</main>',
  ].join('\n')
  return renderDocument({ title: `${serverName}: ${notice.title}`, style: PAGE_STYLESHEET, body })
}

/**
 * The headers of every page of this folder (questions and notices): a CSP that allows no script,
 * no load from anywhere, only the page's own stylesheet (by hash), forms only to this origin,
 * no framing; no referrer (the link holds the token); no sniffing, no caching.
 *
 * @example
 * ```ts
 * setResponseHeaders(event, pageHeaders())
 * ```
 */
export function pageHeaders(): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': `default-src 'none'; style-src '${PAGE_STYLESHEET_HASH}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Cache-Control': 'no-store',
  }
}
