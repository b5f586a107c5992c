import { PAGE_CSRF_FIELD } from './names'

/**
 * Whether a POST to the question page may be read at all: sent by a form (urlencoded), from the
 * page itself (`Sec-Fetch-Site`, `Origin` against the configured origin, never the request's
 * `Host`), carrying the page's CSRF token. The route calls it before `readPageAnswers`.
 *
 * The page is sent with `Referrer-Policy: no-referrer`, and under that policy a browser sends
 * `Origin: null` with a form's POST (Fetch, "append a request Origin header"), so `null` cannot be
 * refused; `Sec-Fetch-Site`, which the policy leaves alone, and the token carry the check.
 */

/**
 * What the check reads of the request (lower-case header values as sent, or undefined).
 *
 * @example
 * ```ts
 * checkPagePost({ contentType, origin, secFetchSite, expectedOrigin: 'https://app.example.com', token: form.get('_csrf'), expectedToken: csrf })
 * ```
 */
export interface McpPagePost {
  contentType: string | undefined
  origin: string | undefined
  secFetchSite: string | undefined
  /** The app's origin, from configuration (`https://app.example.com`), never from `Host`. */
  expectedOrigin: string
  /** The form's `_csrf` value. */
  token: string | null | undefined
  /** The token this page was rendered with. */
  expectedToken: string
}

/**
 * A refusal: the status and the message (for the `refused` notice and the log, never the token).
 *
 * @example
 * ```ts
 * const refusal: McpPagePostRefusal = { status: 403, error: 'The answer came from another site' }
 * ```
 */
export interface McpPagePostRefusal { status: 403 | 415, error: string }

/**
 * Compares two secrets in time that depends on their lengths only, not on where they first differ.
 * Plain code, not `node:crypto`: the page is served on every runtime.
 *
 * @example
 * ```ts
 * sameSecret(form.get('_csrf') ?? '', record.csrf) // true or false
 * ```
 */
export function sameSecret(given: string, expected: string): boolean {
  let difference = given.length ^ expected.length
  for (let index = 0; index < expected.length; index++) difference |= (given.charCodeAt(index) || 0) ^ expected.charCodeAt(index)
  return difference === 0 && expected.length > 0
}

/**
 * The refusal for a POST that must not be read, or undefined.
 *
 * @example
 * ```ts
 * const refusal = checkPagePost({ contentType: 'application/x-www-form-urlencoded', origin: 'null', secFetchSite: 'same-origin',
 *   expectedOrigin: 'https://app.example.com', token: form.get('_csrf'), expectedToken: record.csrf })
 * if (refusal) return renderPageNotice('refused', refusal.error, serverName)
 * ```
 */
export function checkPagePost(post: McpPagePost): McpPagePostRefusal | undefined {
  if (!/^application\/x-www-form-urlencoded\s*(?:;|$)/i.test(post.contentType ?? '')) {
    return { status: 415, error: `The answer must be sent by the page's form (Content-Type: application/x-www-form-urlencoded), not ${JSON.stringify((post.contentType ?? 'none').slice(0, 60))}.` }
  }
  if (post.secFetchSite !== undefined && post.secFetchSite !== 'same-origin') {
    return { status: 403, error: `The answer came from another site (Sec-Fetch-Site: ${post.secFetchSite.slice(0, 40)}): answer on the page itself.` }
  }
  if (post.origin !== undefined && post.origin !== 'null' && post.origin !== post.expectedOrigin) {
    return { status: 403, error: `The answer came from ${JSON.stringify(post.origin.slice(0, 200))}, not from this app's origin: answer on the page itself.` }
  }
  if (!sameSecret(post.token ?? '', post.expectedToken)) {
    return { status: 403, error: `The form's ${PAGE_CSRF_FIELD} field is missing or not this page's: open the link again and answer there.` }
  }
  return undefined
}
