import { defineEventHandler, getRouterParam, setResponseHeader, setResponseStatus } from 'h3'
import { browserOwner, resolveOwner } from '../owner'
import { readHostRequest } from '../read-request'
import { respondToMcpElicitation } from '../respond'
import { useMcpElicitationRegistry } from '../state'

/** Answers are small: a form of a few fields. */
const MAX_BODY = 64 * 1024

/**
 * `POST <mcp.host.route>/:id` (default `/api/_mcp/elicitations/:id`): the browser's answer to a
 * pending elicitation, `{ action, content? }`. Registered only with `mcp.host` on.
 */
export default defineEventHandler(async (event) => {
  setResponseHeader(event, 'cache-control', 'no-store')
  const read = await readHostRequest(event, MAX_BODY, 'An answer is a form of a few fields: send less.')
  if (!read.ok) {
    setResponseStatus(event, read.status)
    return { error: read.error }
  }
  const body = read.body
  const owner = await resolveOwner(event, browserOwner(event, { create: false }))
  try {
    const outcome = await respondToMcpElicitation(useMcpElicitationRegistry(), { id: getRouterParam(event, 'id', { decode: true }), owner, body })
    setResponseStatus(event, outcome.status)
    return outcome.body
  }
  catch (error) {
    // The registry's store is away (the shared one, through NUXT_MCP_REDIS_URL): nothing was
    // answered, and the person may send the same answer again.
    setResponseStatus(event, 503)
    setResponseHeader(event, 'retry-after', 5)
    return { error: `The answer could not be delivered: ${error instanceof Error ? error.message : String(error)}. Send it again in a moment.` }
  }
})
