import { getHeader } from 'h3'
import type { H3Event } from 'h3'
import { MCP_ELICITATION_HEADER } from '../chat/elicitation/types'
import { readLimitedBody } from '../server/common/read-body'
import { checkMcpCsrf } from './csrf'
import { allowedOrigins } from './config'

/** A request the host's endpoints take: its JSON body, or why it is refused (status and message). */
export type HostRequestBody = { ok: true, body: unknown } | { ok: false, status: number, error: string }

/**
 * What every POST endpoint of the host checks before reading what it is asked: the CSRF rules
 * (`csrf.ts`), a body cut off at `maxBytes` while it streams in (a chunked body declares no
 * length), and JSON.
 *
 * @example
 * ```ts
 * const read = await readHostRequest(event, 64 * 1024, 'An answer is a form of a few fields: send less.')
 * if (!read.ok) return refuse(read.status, read.error)
 * ```
 */
export async function readHostRequest(event: H3Event, maxBytes: number, tooLarge: string): Promise<HostRequestBody> {
  const refusal = checkMcpCsrf({
    host: getHeader(event, 'host'),
    origin: getHeader(event, 'origin'),
    secFetchSite: getHeader(event, 'sec-fetch-site'),
    marker: getHeader(event, MCP_ELICITATION_HEADER),
    contentType: getHeader(event, 'content-type'),
    allowedOrigins: allowedOrigins(),
  })
  if (refusal) return { ok: false, status: refusal.status, error: refusal.error }
  const read = await readLimitedBody(event, maxBytes, tooLarge)
  if (!read.ok) return { ok: false, status: read.status, error: read.message }
  try {
    return { ok: true, body: read.text ? JSON.parse(read.text) : undefined }
  }
  catch {
    return { ok: false, status: 400, error: 'The body is not valid JSON.' }
  }
}
