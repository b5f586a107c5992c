import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { encodeBase64Url } from '../common/base64url'
import { isRecord } from '../common/is-record'
import { logUnavailableDetail, McpStoreUnavailableError } from '../common/store/store'
import { answerPage, findPage } from '../elicitation/page/flow'
import type { OpenPage, PageRecord } from '../elicitation/page/flow'
import type { McpEndpointPage } from '../transport/door/endpoint-types'
import { readPageAnswers } from './answers'
import { PAGE_CSRF_FIELD } from './names'
import { checkPagePost } from './post'
import { pageHeaders, pageNoticeStatus, renderPageNotice, renderQuestionPage } from './render'
import type { McpPageNotice, McpPageQuestion, McpPageView } from './render'

/**
 * One request to the question page, as the route hands it over: nothing of h3, so the page is
 * served the same on every runtime.
 *
 * @example
 * ```ts
 * const request: McpPageRequest = { method: 'GET', token, headers: { origin: undefined, secFetchSite: undefined, contentType: undefined } }
 * ```
 */
export interface McpPageRequest {
  method: string
  /** The link's token: the page's id (and its endpoint's key). */
  token: string
  headers: { origin: string | undefined, secFetchSite: string | undefined, contentType: string | undefined }
  /** A POST's body, read within the endpoint's `maxBodySize`; `undefined` when it was larger. */
  body?: string
}

/**
 * What the route sends back.
 *
 * @example
 * ```ts
 * const reply: McpPageReply = { status: 200, headers: pageHeaders(), body: '<!doctype html>…' }
 * ```
 */
export interface McpPageReply {
  status: number
  headers: Record<string, string>
  body: string
}

/**
 * The page's CSRF token for one round of one page: a keyed hash of the page's id and round under
 * the state secret, so no instance keeps it and every instance sharing the secret agrees.
 *
 * @example
 * ```ts
 * pageCsrfOf(secret, record) // 43 base64url characters
 * ```
 */
export function pageCsrfOf(secret: string, record: Pick<PageRecord, 'id' | 'round'>): string {
  const encoder = new TextEncoder()
  return encodeBase64Url(hmac(sha256, encoder.encode(secret), encoder.encode(`question-page|${record.id}|${record.round}`)))
}

/** The record's open questions as the page shows them (the `inputRequests` entry says it all). */
function questionsOf(record: PageRecord): McpPageQuestion[] {
  return Object.entries(record.asked).map(([key, asked]) => {
    const params: Record<string, unknown> = isRecord(asked.request.params) ? asked.request.params : {}
    const message = typeof params.message === 'string' ? params.message : ''
    const consent = asked.consent === true ? { consent: true } : {}
    if (params.mode === 'url') return { key, mode: 'url', message, ...(typeof params.url === 'string' && { url: params.url }), ...consent }
    return { key, mode: 'form', message, ...(isRecord(params.requestedSchema) && { requestedSchema: params.requestedSchema }), ...consent }
  })
}

function notice(kind: McpPageNotice, detail: string, serverName: string): McpPageReply {
  return { status: pageNoticeStatus(kind), headers: pageHeaders(), body: renderPageNotice(kind, detail, serverName) }
}

/**
 * Serves the question page of one link: GET shows the questions (and never answers: link
 * previews and models fetch links), POST takes the person's answers once. A page bound to a
 * principal is shown only to a person the app's `mcp:auth` hooks name as that principal.
 *
 * @example
 * ```ts
 * const reply = await serveQuestionPage(request, endpoint.page, () => endpoint.page.identify(event))
 * ```
 */
export async function serveQuestionPage(request: McpPageRequest, endpoint: McpEndpointPage, identify: () => Promise<string | undefined>): Promise<McpPageReply> {
  const serverName = endpoint.config.name
  if (request.method !== 'GET' && request.method !== 'POST') {
    return { status: 405, headers: { ...pageHeaders(), 'Allow': 'GET, POST' }, body: renderPageNotice('refused', `${request.method} is not used here: open the link in a browser (GET) and answer with the page's form (POST).`, serverName) }
  }
  let found: OpenPage | undefined
  try {
    found = await findPage(endpoint.store, request.token)
  }
  catch (error) {
    if (!(error instanceof McpStoreUnavailableError)) throw error
    logUnavailableDetail(error)
    return { status: 503, headers: { ...pageHeaders(), 'Retry-After': '5' }, body: renderPageNotice('refused', `The question cannot be read right now (${error.message}). Try the link again in a moment: nothing was lost.`, serverName) }
  }
  if (!found) return notice('unknown', 'This link is not (or no longer) a question waiting for an answer: it expired, or the tool has finished with it. Ask the assistant to call the tool again for a new link.', serverName)
  const { record } = found
  if (record.principal !== undefined && await identify() !== record.principal) {
    return notice('sign-in', `This question was asked for a signed-in account. Sign in to ${serverName} as that account in this browser, then open the link again.`, serverName)
  }
  if (found.answered) return notice('answered', 'This question was answered already: a page is answered once. Go back to the chat and ask the assistant to go on.', serverName)
  const questions = questionsOf(record)
  const csrf = pageCsrfOf(endpoint.secret, record)
  const view: McpPageView = { serverName, tool: record.tool, arguments: isRecord(record.args) ? record.args : {}, questions, csrf, expiresAt: record.exp }
  if (request.method === 'GET') return { status: 200, headers: pageHeaders(), body: renderQuestionPage(view) }
  if (request.body === undefined) return notice('refused', `The answer is larger than this server accepts (mcp.maxBodySize, ${endpoint.config.maxBodySize} bytes).`, serverName)
  const form = new URLSearchParams(request.body)
  const refusal = checkPagePost({ ...request.headers, expectedOrigin: new URL(endpoint.config.publicUrl).origin, token: form.get(PAGE_CSRF_FIELD), expectedToken: csrf })
  if (refusal) return { status: refusal.status, headers: pageHeaders(), body: renderPageNotice('refused', refusal.error, serverName) }
  const read = readPageAnswers(questions, form)
  if (!read.ok) return { status: 422, headers: pageHeaders(), body: renderQuestionPage({ ...view, errors: read.errors, values: read.values }) }
  if (!await answerPage(endpoint.store, record, read.responses)) {
    return notice('answered', 'This question was answered already (in another tab?): a page is answered once. Go back to the chat and ask the assistant to go on.', serverName)
  }
  const declined = Object.values(read.responses).every(response => response.action !== 'accept')
  return notice(declined ? 'declined' : 'answered', `Go back to the chat and tell the assistant you have answered: it calls ${record.tool} again with the same arguments, and the tool goes on from there.`, serverName)
}
