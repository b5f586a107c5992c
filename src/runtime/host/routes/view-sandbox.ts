import { defineEventHandler, setResponseHeader, setResponseStatus } from 'h3'
import { SANDBOX_PAGE } from '../view-frame/sandbox-page'
import { refuseSandboxRequest } from '../view-frame/sandbox-url'
import { useMcpHostConfig } from '../config'

/**
 * `GET /_mcp/apps/sandbox`: the MCP App sandbox proxy page, meant to be framed from another
 * origin (`mcp.host.apps.sandboxOrigin`), and served only on that origin's host: anywhere else
 * (the app's own origin included) a 404 that says where it is served. No CSP header of its own:
 * its inner `srcdoc` frame would inherit it on top of the view's own policy.
 */
export default defineEventHandler((event) => {
  setResponseHeader(event, 'cache-control', 'no-store')
  setResponseHeader(event, 'x-content-type-options', 'nosniff')
  const refusal = refuseSandboxRequest(event, useMcpHostConfig(event).appsSandboxOrigin, import.meta.dev)
  if (refusal) {
    setResponseStatus(event, 404)
    setResponseHeader(event, 'content-type', 'text/plain; charset=utf-8')
    return refusal
  }
  setResponseHeader(event, 'content-type', 'text/html; charset=utf-8')
  return SANDBOX_PAGE
})
