import { defineEventHandler, getHeader, getRouterParam, readRawBody, setResponseHeader, setResponseStatus } from 'h3'
import { useRuntimeConfig } from 'nitropack/runtime'
import { MCP_ELICITATION_HEADER } from '../../app/elicitation/types'
import { checkCsrf } from '../csrf'
import { browserOwner, resolveOwner } from '../owner'
import { respondToElicitation } from '../respond'
import { useMcpElicitationRegistry } from '../state'

/** Answers are small: a form of a few fields. */
const MAX_BODY = 64 * 1024

/** `mcp.allowedOrigins` (a list, or a comma-separated string from NUXT_MCP_ALLOWED_ORIGINS). */
function allowedOrigins(): string[] {
  const mcp: unknown = useRuntimeConfig().mcp
  const raw: unknown = typeof mcp === 'object' && mcp !== null && 'allowedOrigins' in mcp ? mcp.allowedOrigins : undefined
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : []
  return list.filter((item): item is string => typeof item === 'string').map(item => item.trim()).filter(Boolean)
}

/**
 * `POST <mcp.host.route>/:id` (default `/api/_mcp/elicitations/:id`): the browser's answer to a
 * pending elicitation, `{ action, content? }`. Registered only with `mcp.host` on.
 */
export default defineEventHandler(async (event) => {
  setResponseHeader(event, 'cache-control', 'no-store')
  const refusal = checkCsrf({
    host: getHeader(event, 'host'),
    origin: getHeader(event, 'origin'),
    secFetchSite: getHeader(event, 'sec-fetch-site'),
    marker: getHeader(event, MCP_ELICITATION_HEADER),
    contentType: getHeader(event, 'content-type'),
    allowedOrigins: allowedOrigins(),
  })
  if (refusal) {
    setResponseStatus(event, refusal.status)
    return { error: refusal.error }
  }
  if (Number(getHeader(event, 'content-length') ?? 0) > MAX_BODY) {
    setResponseStatus(event, 413)
    return { error: `The answer is larger than ${MAX_BODY} bytes.` }
  }
  const raw = await readRawBody(event, 'utf8')
  let body: unknown
  try {
    body = raw ? JSON.parse(raw) : undefined
  }
  catch {
    setResponseStatus(event, 400)
    return { error: 'The body is not valid JSON.' }
  }
  if (raw && raw.length > MAX_BODY) {
    setResponseStatus(event, 413)
    return { error: `The answer is larger than ${MAX_BODY} bytes.` }
  }
  const owner = await resolveOwner(event, browserOwner(event, { create: false }))
  const outcome = await respondToElicitation(useMcpElicitationRegistry(), { id: getRouterParam(event, 'id', { decode: true }), owner, body })
  setResponseStatus(event, outcome.status)
  return outcome.body
})
