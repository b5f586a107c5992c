import { randomBytes } from 'node:crypto'
import { defineEventHandler, getRequestURL, setHeader } from 'h3'
import { useRuntimeConfig } from 'nitropack/runtime'
import type { McpServerConfig } from '../common/config'
import { toList } from '../common/config'
import { collectDevtoolsData } from '../devtools/data'
import { devtoolsPolicy, renderDevtoolsPage } from '../devtools/page'
import { jsonRpcError } from '../transport/http/errors'
import { checkOriginPolicy, isHostForThisMachine } from '../transport/door/security'
import { useMcpEndpoint } from '../use-endpoint'

// Registered by the module in `nuxi dev` only: `<route>` serves the page, `<route>.json` its data.
export default defineEventHandler((event) => {
  const config = useRuntimeConfig(event).mcp as McpServerConfig
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
  if (getRequestURL(event).pathname.endsWith('.json')) return collectDevtoolsData(useMcpEndpoint(event), config)
  const nonce = randomBytes(16).toString('base64')
  setHeader(event, 'content-type', 'text/html; charset=utf-8')
  setHeader(event, 'content-security-policy', devtoolsPolicy(nonce))
  return renderDevtoolsPage(nonce)
})
