import { isRecord } from '../../src/runtime/server/common/is-record'
import { PAGE_META_KEY } from '../../src/runtime/server/elicitation/page/flow'
import { PAGE_ACTION_FIELD, PAGE_CSRF_FIELD } from '../../src/runtime/server/page/names'

/** What a tool result that waits on the app's question page carries under `_meta`. */
export interface PageQuestionMeta { url: string, expiresAt: string, questions: { key: string, mode: string, message: string }[] }

/**
 * The machine-readable question a tool result carries for the app's page, or `undefined`.
 *
 * @example
 * ```ts
 * expect(questionOf(await client.callTool({ name: 'ask_form', arguments: {} }))?.questions).toHaveLength(1)
 * ```
 */
export function questionOf(result: unknown): PageQuestionMeta | undefined {
  const meta = isRecord(result) && isRecord(result._meta) ? result._meta[PAGE_META_KEY] : undefined
  if (!isRecord(meta) || typeof meta.url !== 'string' || typeof meta.expiresAt !== 'string' || !Array.isArray(meta.questions)) return undefined
  return { url: meta.url, expiresAt: meta.expiresAt, questions: meta.questions.filter(isRecord).map(question => ({ key: String(question.key), mode: String(question.mode), message: String(question.message) })) }
}

/**
 * The page's link a tool result carries; throws, showing the result, when it carries none.
 *
 * @example
 * ```ts
 * const link = linkOf(await client.callTool({ name: 'ask_form', arguments: {} }))
 * ```
 */
export function linkOf(result: unknown): string {
  const question = questionOf(result)
  if (!question) throw new Error(`the result carries no question for the app's page: ${JSON.stringify(result)}`)
  return question.url
}

/** The link's page on `origin` (an instance's own loopback address: the link names the public URL). */
function onServer(origin: string, link: string): URL {
  return new URL(new URL(link).pathname, origin)
}

/**
 * GETs the page of `link` from the server at `origin`.
 *
 * @example
 * ```ts
 * expect((await openQuestionPage(app.origin, link)).status).toBe(200)
 * ```
 */
export async function openQuestionPage(origin: string, link: string, headers: Record<string, string> = {}): Promise<{ status: number, html: string, headers: Headers }> {
  const response = await fetch(onServer(origin, link), { headers })
  return { status: response.status, html: await response.text(), headers: response.headers }
}

/** The CSRF token a rendered page holds. */
export function csrfOf(html: string): string {
  const token = new RegExp(`name="${PAGE_CSRF_FIELD}" value="([^"]+)"`).exec(html)?.[1]
  if (!token) throw new Error(`the page has no ${PAGE_CSRF_FIELD} field:\n${html.slice(0, 2000)}`)
  return token
}

/**
 * Answers the page as its form does: the fields (by their `pageFieldName`), the CSRF token the page
 * was rendered with (or `csrf`), from `publicOrigin`, the app's configured origin.
 *
 * @example
 * ```ts
 * await answerQuestionPage(app.origin, 'http://mcp.test', link, { [pageFieldName(0, 0)]: 'Ada' })
 * ```
 */
export async function answerQuestionPage(origin: string, publicOrigin: string, link: string, fields: Record<string, string | string[]>, options: { action?: string, headers?: Record<string, string>, csrf?: string } = {}): Promise<{ status: number, html: string }> {
  const page = await openQuestionPage(origin, link, options.headers)
  const form = new URLSearchParams({ [PAGE_CSRF_FIELD]: options.csrf ?? csrfOf(page.html), [PAGE_ACTION_FIELD]: options.action ?? 'accept' })
  for (const [name, value] of Object.entries(fields)) for (const item of [value].flat()) form.append(name, item)
  const response = await fetch(onServer(origin, link), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'origin': publicOrigin, ...options.headers }, body: form.toString() })
  return { status: response.status, html: await response.text() }
}
