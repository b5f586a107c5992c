import { defineEventHandler, getHeader, getRouterParam, setResponseHeader, setResponseStatus } from 'h3'
import { createMCPClient } from '@ai-sdk/mcp'
import { MCP_ELICITATION_HEADER } from '../../app/elicitation/types'
import { readLimitedBody } from '../../server/common/read-body'
import { isRecord } from '../../server/common/is-record'
import { checkCsrf } from '../csrf'
import { allowedOrigins } from '../config'
import { browserOwner, resolveOwner } from '../owner'
import { findAppSession } from '../apps/sessions'

/** A view's tool call: a name and its arguments. */
const MAX_BODY = 256 * 1024

/**
 * `POST /api/_mcp/apps/:id/call` with `{ name, arguments }`: a tool call an MCP App view makes
 * (`callServerTool`), made by the host on the connection its chat used, for the browser that
 * owns that chat, and only for a tool a view may call. Registered only with `mcp.host` on.
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
  const read = await readLimitedBody(event, MAX_BODY, 'A view\'s tool call is a name and its arguments: send less.')
  if (!read.ok) {
    setResponseStatus(event, read.status)
    return { error: read.message }
  }
  let body: unknown
  try {
    body = read.text ? JSON.parse(read.text) : undefined
  }
  catch {
    setResponseStatus(event, 400)
    return { error: 'The body is not valid JSON.' }
  }
  const name = isRecord(body) && typeof body.name === 'string' ? body.name : undefined
  const args = isRecord(body) && body.arguments !== undefined ? body.arguments : {}
  if (!name || !isRecord(args)) {
    setResponseStatus(event, 400)
    return { error: 'Send { "name": "<tool>", "arguments": { … } }: "name" a string, "arguments" an object.' }
  }
  const owner = await resolveOwner(event, browserOwner(event, { create: false }))
  const session = findAppSession(getRouterParam(event, 'id', { decode: true }), owner)
  if (!session) {
    setResponseStatus(event, 404)
    return { error: 'This view\'s session is unknown or has expired (it lasts 30 minutes, in the instance that served the chat). Run the tool again.' }
  }
  if (!session.callable.has(name)) {
    setResponseStatus(event, 403)
    return { error: `A view may not call "${name}": the server lists no such tool, or keeps it for the model (visibility without "app").` }
  }
  const client = await createMCPClient({ transport: session.transport })
  try {
    return await client.callTool({ name, arguments: args })
  }
  catch (error) {
    setResponseStatus(event, 502)
    return { error: `The MCP server did not answer the call of "${name}": ${error instanceof Error ? error.message : String(error)}` }
  }
  finally {
    await client.close().catch(() => {})
  }
})
