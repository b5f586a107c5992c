import { MCP_ELICITATION_HEADER } from '../chat/elicitation/types'

/**
 * Cross-site request forgery protection of the respond endpoint. The owner cookie is
 * `SameSite=Strict` already; on top of it a request must:
 * - carry `x-mcp-elicitation: 1`: a custom header, which a cross-site page can only send after a
 *   CORS preflight this endpoint never approves (and an HTML form cannot send at all);
 * - when the browser says where it comes from, come from this very origin: `Sec-Fetch-Site` must
 *   be `same-origin`, and `Origin` must be `http(s)://<Host>` or listed in `allowedOrigins`;
 * - send JSON (`Content-Type: application/json`).
 */

/** The request headers the check reads (lower-case names, as Node gives them). */
export interface CsrfRequest {
  host: string | undefined
  origin: string | undefined
  secFetchSite: string | undefined
  marker: string | undefined
  contentType: string | undefined
  /** Origins accepted besides the request's own (`mcp.allowedOrigins`). */
  allowedOrigins?: readonly string[]
}

/** A refusal: the status and the message to send. */
export interface CsrfRefusal { status: 403 | 415; error: string }

/**
 * Returns the refusal for a request that fails the check, or undefined.
 *
 * @example
 * ```ts
 * checkMcpCsrf({ host: 'app.test', origin: 'https://evil.test', secFetchSite: 'cross-site', marker: '1', contentType: 'application/json' })
 * // { status: 403, error: 'Cross-site request refused (Sec-Fetch-Site: cross-site).' }
 * ```
 */
export function checkMcpCsrf(request: CsrfRequest): CsrfRefusal | undefined {
  if (request.marker !== '1') {
    return { status: 403, error: `Missing the ${MCP_ELICITATION_HEADER}: 1 header (CSRF protection): send the answer with useMcpChatElicitations() or add the header.` }
  }
  if (request.secFetchSite !== undefined && request.secFetchSite !== 'same-origin') {
    return { status: 403, error: `Cross-site request refused (Sec-Fetch-Site: ${request.secFetchSite.slice(0, 40)}).` }
  }
  if (request.origin !== undefined) {
    const own = request.host !== undefined && (request.origin === `http://${request.host}` || request.origin === `https://${request.host}`)
    if (!own && !(request.allowedOrigins ?? []).includes(request.origin)) {
      return { status: 403, error: `Origin "${request.origin.slice(0, 200)}" may not answer elicitations of this app.` }
    }
  }
  if (!/^application\/json\s*(?:;|$)/i.test(request.contentType ?? '')) {
    return { status: 415, error: 'Send the answer as application/json.' }
  }
  return undefined
}
