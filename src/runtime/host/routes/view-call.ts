import { defineEventHandler, getRouterParam, setResponseHeader, setResponseStatus } from 'h3'
import { createMCPClient } from '@ai-sdk/mcp'
import { isRecord } from '../../server/common/is-record'
import { browserOwner, resolveOwner } from '../owner'
import { readHostRequest } from '../read-request'
import { findViewSession } from '../view-frame/sessions'

/** A view's tool call: a name and its arguments. */
const MAX_BODY = 256 * 1024

/**
 * `POST /api/_mcp/apps/:id/call` with `{ name, arguments }`: a tool call an MCP App view makes
 * (`callServerTool`), made by the host on the connection its chat used, for the browser that
 * owns that chat, and only for a tool a view may call. Registered only with `mcp.host` on.
 */
export default defineEventHandler(async (event) => {
  setResponseHeader(event, 'cache-control', 'no-store')
  const read = await readHostRequest(event, MAX_BODY, 'A view\'s tool call is a name and its arguments: send less.')
  if (!read.ok) {
    setResponseStatus(event, read.status)
    return { error: read.error }
  }
  const body = read.body
  const name = isRecord(body) && typeof body.name === 'string' ? body.name : undefined
  const args = isRecord(body) && body.arguments !== undefined ? body.arguments : {}
  if (!name || !isRecord(args)) {
    setResponseStatus(event, 400)
    return { error: 'Send { "name": "<tool>", "arguments": { … } }: "name" a string, "arguments" an object.' }
  }
  const owner = await resolveOwner(event, browserOwner(event, { create: false }))
  const session = findViewSession(getRouterParam(event, 'id', { decode: true }), owner)
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
