import { defineEventHandler, getHeader, getRouterParam, setResponseHeaders, setResponseStatus } from 'h3'
import { useRuntimeConfig } from 'nitropack/runtime'
import { endpointKeys } from '#mcp-elicitation/options'
import type { McpServerConfig } from '../common/config'
import { readLimitedBody } from '../common/read-body'
import { endpointKeyOfToken } from '../elicitation/page/flow'
import { serveQuestionPage } from '../page/serve'
import type { McpPageReply } from '../page/serve'
import { pageHeaders, renderPageNotice } from '../page/render'
import { useMcpEndpointAt } from '../use-endpoint'

// GET/POST <base>/_mcp/question/<token>: the app's own page for a question an MCP client could
// not show (docs/elicitation.md, "When the client cannot ask"). The token names its endpoint.
export default defineEventHandler(async (event) => {
  const token = getRouterParam(event, 'token') ?? ''
  const key = endpointKeyOfToken(token)
  const route = Object.keys(endpointKeys).find(candidate => endpointKeys[candidate] === key)
  const config = useRuntimeConfig(event).mcp as McpServerConfig
  let reply: McpPageReply
  if (route === undefined) {
    reply = { status: 404, headers: pageHeaders(), body: renderPageNotice('unknown', 'This link names no MCP endpoint of this app: ask the assistant to call the tool again for a new link.', config.name) }
  }
  else {
    try {
      const endpoint = useMcpEndpointAt(route, config)
      let body: string | undefined
      if (event.method === 'POST') {
        const read = await readLimitedBody(event, endpoint.page.config.maxBodySize)
        body = read.ok ? read.text : undefined
      }
      reply = await serveQuestionPage({
        method: event.method,
        token,
        headers: { origin: getHeader(event, 'origin'), secFetchSite: getHeader(event, 'sec-fetch-site'), contentType: getHeader(event, 'content-type') },
        ...(body !== undefined && { body }),
      }, endpoint.page, () => endpoint.page.identify(event))
    }
    catch (error) {
      // Never thrown to Nitro, whose error log prints the URL: the URL holds the token.
      console.error(`[nuxt-mcp-elicitation] The question page of ${route} failed: ${error instanceof Error ? error.message : String(error)}`)
      reply = { status: 500, headers: pageHeaders(), body: renderPageNotice('refused', 'The question page failed; the server log says why. Try the link again later.', config.name) }
    }
  }
  setResponseStatus(event, reply.status)
  setResponseHeaders(event, reply.headers)
  return reply.body
})
