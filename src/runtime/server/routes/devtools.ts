import { randomBytes } from 'node:crypto'
import { defineEventHandler, getRequestHeader, getRequestURL, setHeader, setResponseStatus } from 'h3'
import { useRuntimeConfig } from 'nitropack/runtime'
import type { McpServerConfig } from '../common/config'
import { toList } from '../common/config'
import { clearCallRecords } from '../devtools/call-recorder'
import { collectDevtoolsData } from '../devtools/data'
import { DEVTOOLS_ICON_SVG, devtoolsPolicy, renderDevtoolsPage } from '../devtools/page'
import { CLEAR_HEADER } from '../devtools/page-script'
import { clearQuestionRecords } from '../devtools/recorder'
import { jsonRpcError } from '../transport/http/errors'
import { checkOriginPolicy, isHostForThisMachine } from '../transport/door/security'
import { baseUrlOf, endpointConfigAt, mcpRoutes, useMcpEndpointAt } from '../use-endpoint'

// Registered by the module in `nuxi dev` only: `<route>` serves the page, `<route>.json` its data
// (`DELETE` clears the recorded calls and questions), `<route>.svg` the tab's icon.
export default defineEventHandler((event) => {
  const path = getRequestURL(event).pathname
  if (path.endsWith('.svg')) {
    // The icon shows nothing of the app: served to whoever shows the DevTools.
    setHeader(event, 'content-type', 'image/svg+xml')
    return DEVTOOLS_ICON_SVG
  }
  const runtime = useRuntimeConfig(event)
  const config = runtime.mcp as McpServerConfig
  const allowedHosts = toList(config.allowedHosts)
  // This page shows people's answers, so it is stricter than the endpoint: with `nuxi dev --host`
  // the dev server is on the network, and a browser there (whose Host names this machine's
  // address) is refused. A non-browser client can forge Host; `--host` already serves it the
  // app's sources through Vite.
  if (!isHostForThisMachine(event, allowedHosts)) {
    return jsonRpcError(403, -32000, `Forbidden: the MCP DevTools page is served to this machine only (it shows the answers people gave), and Host "${(event.node.req.headers.host ?? '').slice(0, 200)}" is another. Open it at http://localhost:<port>, or list the host in \`mcp.allowedHosts\`.`)
  }
  // Then the endpoint's DNS-rebinding and cross-site rules.
  const refusal = checkOriginPolicy(event, { allowedHosts, allowedOrigins: toList(config.allowedOrigins) })
  if (refusal) return refusal
  setHeader(event, 'cache-control', 'no-store')
  const json = path.endsWith('.json')
  if (event.method === 'DELETE' && json) {
    // A header no cross-site form can send, and no cross-site script without a preflight this
    // route never answers: only the page itself clears the lists.
    if (getRequestHeader(event, CLEAR_HEADER) !== 'clear') return jsonRpcError(403, -32000, `Forbidden: clearing the MCP DevTools lists needs the header ${CLEAR_HEADER}: clear.`)
    clearCallRecords()
    clearQuestionRecords()
    setResponseStatus(event, 204)
    return null
  }
  if (event.method !== 'GET' && event.method !== 'HEAD') return jsonRpcError(405, -32000, 'Method not allowed.')
  if (json) {
    const origin = getRequestURL(event).origin
    const base = baseUrlOf(runtime).replace(/\/$/, '')
    // Every endpoint, also one that has served nothing yet (made now, as its first request would).
    return collectDevtoolsData(mcpRoutes.map(route => ({
      route,
      url: new URL(`${base}${route}`, origin).href,
      endpoint: useMcpEndpointAt(route, config),
      config: endpointConfigAt(route, config),
    })))
  }
  const nonce = randomBytes(16).toString('base64')
  setHeader(event, 'content-type', 'text/html; charset=utf-8')
  setHeader(event, 'content-security-policy', devtoolsPolicy(nonce))
  return renderDevtoolsPage(nonce)
})
