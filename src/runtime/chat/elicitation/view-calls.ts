import { isCallToolResult } from '@modelcontextprotocol/client'
import type { CallToolResult } from '@modelcontextprotocol/client'

/**
 * A view's tool call, sent by the page to the host (`POST <callUrl>`), which makes it on the
 * connection its chat used. No Vue in here.
 */

/**
 * POSTs one tool call of a view to the host and returns its result; a refusal (403, 404, 502)
 * becomes an error with the host's message, which the view's `callServerTool` then rejects with.
 *
 * @example
 * ```ts
 * const result = await postViewToolCall(app.callUrl, 'x-mcp-elicitation', 'refresh', { city: 'Lyon' })
 * ```
 */
export async function postViewToolCall(callUrl: string, csrfHeader: string, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const response = await fetch(callUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [csrfHeader]: '1' },
    body: JSON.stringify({ name, arguments: args }),
  })
  const body: unknown = await response.json().catch(() => undefined)
  if (!response.ok || !isCallToolResult(body)) {
    const error = typeof body === 'object' && body !== null && 'error' in body ? String(body.error) : `HTTP ${response.status}`
    throw new Error(`The host refused the view's call of "${name}": ${error}`)
  }
  return body
}
