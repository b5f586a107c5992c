import { randomBytes } from 'node:crypto'
import { defineEventHandler, setHeader } from 'h3'
import { useRuntimeConfig } from 'nitropack/runtime'
import type { McpServerConfig } from '../config'
import { toList } from '../config'
import { collectDevtoolsData } from '../devtools/data'
import { devtoolsPolicy, renderDevtoolsPage } from '../devtools/page'
import { checkOriginPolicy } from '../security'
import { useMcpEndpoint } from '../use-endpoint'

// Registered by the module in `nuxi dev` only: `<route>` serves the page, `<route>.json` its data.
export default defineEventHandler((event) => {
  const config = useRuntimeConfig(event).mcp as McpServerConfig
  // The same DNS-rebinding and cross-site rules as the endpoint: this page shows people's answers.
  const refusal = checkOriginPolicy(event, { allowedHosts: toList(config.allowedHosts), allowedOrigins: toList(config.allowedOrigins) })
  if (refusal) return refusal
  setHeader(event, 'cache-control', 'no-store')
  if (event.path.split('?')[0]!.endsWith('.json')) return collectDevtoolsData(useMcpEndpoint(event), config)
  const nonce = randomBytes(16).toString('base64')
  setHeader(event, 'content-type', 'text/html; charset=utf-8')
  setHeader(event, 'content-security-policy', devtoolsPolicy(nonce))
  return renderDevtoolsPage(nonce)
})
