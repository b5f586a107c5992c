import { defineEventHandler, getHeader, getRouterParam, setResponseHeaders, setResponseStatus } from 'h3'
import { useRuntimeConfig } from 'nitropack/runtime'
import { endpointKeys, route as defaultRoute } from '#mcp-elicitation/options'
import { serveQuestionPage } from '#mcp-elicitation/page'
import type { McpServerConfig } from '../common/config'
import { readLimitedBody } from '../common/read-body'
import { endpointKeyOfToken } from '../elicitation/page/flow'
import { useMcpEndpointAt } from '../use-endpoint'

// GET/POST <base>/_mcp/question/<token>: the app's own page for a question an MCP client could
// not show (docs/elicitation.md, "When the client cannot ask"). The token names its endpoint. A
// build without the page (mcp.elicitation.page.enabled: false, the default on Workers) answers 404.
export default defineEventHandler(async (event) => {
  if (!serveQuestionPage) {
    setResponseStatus(event, 404)
    return 'This app shows no question page (mcp.elicitation.page.enabled is off).'
  }
  const token = getRouterParam(event, 'token') ?? ''
  const key = endpointKeyOfToken(token)
  // A token naming no endpoint of this app is looked up at the default one, which knows it not.
  const route = Object.keys(endpointKeys).find(candidate => endpointKeys[candidate] === key) ?? defaultRoute
  try {
    const endpoint = useMcpEndpointAt(route, useRuntimeConfig(event).mcp as McpServerConfig)
    let body: string | undefined
    if (event.method === 'POST') {
      const read = await readLimitedBody(event, endpoint.page.config.maxBodySize)
      body = read.ok ? read.text : undefined
    }
    const reply = await serveQuestionPage({
      method: event.method,
      token,
      headers: { origin: getHeader(event, 'origin'), secFetchSite: getHeader(event, 'sec-fetch-site'), contentType: getHeader(event, 'content-type') },
      ...(body !== undefined && { body }),
    }, endpoint.page, () => endpoint.page.identify(event))
    setResponseStatus(event, reply.status)
    setResponseHeaders(event, reply.headers)
    return reply.body
  }
  catch (error) {
    // Never thrown to Nitro, whose error log prints the URL: the URL holds the token.
    console.error(`[nuxt-mcp-elicitation] The question page of ${route} failed: ${error instanceof Error ? error.message : String(error)}`)
    setResponseStatus(event, 500)
    return 'The question page failed; the server log says why. Try the link again later.'
  }
})
