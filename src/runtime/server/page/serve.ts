import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { encodeBase64Url } from '../common/base64url'
import { isRecord } from '../common/is-record'
import { logUnavailableDetail, McpStoreUnavailableError } from '../common/store/store'
import { answerPage, askedQuestionsOf, findPage } from '../elicitation/page/flow'
import type { PageRecord } from '../elicitation/page/flow'
import { publicBaseOf } from '../common/config'
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
  try {
    return await servePage(request, endpoint, identify)
  }
  catch (error) {
    // Answered here, never thrown to Nitro: its error log would print the URL, and the URL holds the token.
    const serverName = endpoint.config.name
    if (error instanceof McpStoreUnavailableError) {
      logUnavailableDetail(error)
      return { status: 503, headers: { ...pageHeaders(), 'Retry-After': '5' }, body: renderPageNotice('refused', `The question cannot be read or answered right now (${error.message}). Try the link again in a moment: nothing was lost.`, serverName) }
    }
    console.error(`[nuxt-mcp-elicitation] The question page of ${endpoint.route} failed: ${error instanceof Error ? error.message : String(error)}`)
    return { status: 500, headers: pageHeaders(), body: renderPageNotice('refused', 'The question page failed; the server log says why. Try the link again later.', serverName) }
  }
}

async function servePage(request: McpPageRequest, endpoint: McpEndpointPage, identify: () => Promise<string | undefined>): Promise<McpPageReply> {
  const serverName = endpoint.config.name
  if (request.method !== 'GET' && request.method !== 'POST') {
    return { status: 405, headers: { ...pageHeaders(), 'Allow': 'GET, POST' }, body: renderPageNotice('refused', `${request.method} is not used here: open the link in a browser (GET) and answer with the page's form (POST).`, serverName) }
  }
  const found = await findPage(endpoint.store, request.token)
  if (!found) return notice('unknown', 'This link is not (or no longer) a question waiting for an answer: it expired, or the tool has finished with it. Ask the assistant to call the tool again for a new link.', serverName)
  const { record } = found
  if (record.principal !== undefined && await identify() !== record.principal) {
    return notice('sign-in', `This question was asked for a signed-in account. Sign in to ${serverName} as that account in this browser, then open the link again.`, serverName)
  }
  if (found.answered) return notice('answered', 'This question was answered already: a page is answered once. Go back to the chat and ask the assistant to go on.', serverName)
  const questions: McpPageQuestion[] = askedQuestionsOf(record)
  const csrf = pageCsrfOf(endpoint.secret, record)
  const view: McpPageView = { serverName, tool: record.tool, arguments: isRecord(record.args) ? record.args : {}, questions, csrf, expiresAt: record.exp }
  if (request.method === 'GET') return { status: 200, headers: pageHeaders(), body: renderQuestionPage(view) }
  if (request.body === undefined) return notice('refused', `The answer is larger than this server accepts (mcp.maxBodySize, ${endpoint.config.maxBodySize} bytes).`, serverName)
  const form = new URLSearchParams(request.body)
  // Links are made only with a public URL; an instance without one (its config differs) takes no answer.
  const origin = publicBaseOf(endpoint.config.publicUrl)
  if (origin === undefined) return notice('refused', 'This instance has no public URL (NUXT_MCP_PUBLIC_URL), so it cannot check where the answer comes from. Set the same public URL on every instance.', serverName)
  const refusal = checkPagePost({ ...request.headers, expectedOrigin: new URL(origin).origin, token: form.get(PAGE_CSRF_FIELD), expectedToken: csrf })
  if (refusal) return { status: refusal.status, headers: pageHeaders(), body: renderPageNotice('refused', refusal.error, serverName) }
  const read = readPageAnswers(questions, form)
  if (!read.ok) return { status: 422, headers: pageHeaders(), body: renderQuestionPage({ ...view, errors: read.errors, values: read.values }) }
  if (!await answerPage(endpoint.store, record, read.responses)) {
    return notice('answered', 'This question was answered already (in another tab?): a page is answered once. Go back to the chat and ask the assistant to go on.', serverName)
  }
  const declined = Object.values(read.responses).every(response => response.action !== 'accept')
  return notice(declined ? 'declined' : 'answered', `Go back to the chat and tell the assistant you have answered: it calls ${record.tool} again with the same arguments, and the tool goes on from there.`, serverName)
}
