import { defineEventHandler } from 'h3'
import { jsonRpcError } from '../transport/http/errors'
import { useMcpEndpoint } from '../use-endpoint'
import type { McpEndpoint } from '../transport/door/endpoint'

let reported = false

export default defineEventHandler((event) => {
  let endpoint: McpEndpoint
  try {
    endpoint = useMcpEndpoint(event)
  }
  catch (error) {
    // A configuration refused at the first request (where env arrives per request, as on Workers,
    // the startup check cannot see it): the log says what, the client only that it is so.
    if (!reported) {
      reported = true
      console.error(error instanceof Error ? error.message : error)
    }
    return jsonRpcError(500, -32603, 'The MCP endpoint is misconfigured; the server log says what to change.')
  }
  return endpoint.serve(event)
})
