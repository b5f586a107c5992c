import { defineEventHandler, setResponseHeader } from 'h3'
import { SANDBOX_PAGE } from '../apps/sandbox-page'

/**
 * `GET /_mcp/apps/sandbox`: the MCP App sandbox proxy page, meant to be framed from another
 * origin (`mcp.host.apps.sandboxOrigin`). No CSP header of its own: its inner `srcdoc` frame
 * would inherit it on top of the view's own policy.
 */
export default defineEventHandler((event) => {
  setResponseHeader(event, 'content-type', 'text/html; charset=utf-8')
  setResponseHeader(event, 'cache-control', 'no-store')
  setResponseHeader(event, 'x-content-type-options', 'nosniff')
  return SANDBOX_PAGE
})
