import { defineEventHandler, setResponseHeader, setResponseStatus } from 'h3'
import { useRuntimeConfig } from 'nitropack/runtime'
import type { McpServerConfig } from '../common/config'
import { baseUrlOf, endpointConfigAt, endpointRouteOf } from '../use-endpoint'
import { protectedResourceMetadata, resolveOAuthSettings } from '../transport/oauth/settings'

// GET /.well-known/oauth-protected-resource<route>: where MCP clients learn which authorization
// server issues tokens for this endpoint (RFC 9728), after a 401 names this URL.
export default defineEventHandler((event) => {
  const route = endpointRouteOf(event, '/.well-known/oauth-protected-resource')
  const runtime = useRuntimeConfig(event)
  const settings = resolveOAuthSettings(endpointConfigAt(route, runtime.mcp as McpServerConfig), route, baseUrlOf(runtime))
  if (!settings) {
    setResponseStatus(event, 404)
    return { error: 'OAuth is not configured on this MCP endpoint (mcp.auth.issuers is empty).' }
  }
  // Read by clients in browsers too (the MCP Inspector): any origin may read public metadata.
  setResponseHeader(event, 'access-control-allow-origin', '*')
  setResponseHeader(event, 'cache-control', 'public, max-age=300')
  return protectedResourceMetadata(settings)
})
