import { jsonRpcError } from './errors'

// The session caps and their refusals: the table applies them in one process, the shared
// directory across instances; both answer a caller at its cap with the same 503.

/** The session caps (`mcp.sessions`). */
export interface SessionCaps { max: number, maxPerPrincipal: number }

/** 503: the caller is at its cap and every one of its sessions has a request in flight. */
export function tooManyOfOneCaller(caps: SessionCaps): Response {
  return jsonRpcError(503, -32000, `Too many MCP sessions of one caller (${caps.maxPerPrincipal}), each with a request in flight. Retry later, close sessions you no longer use (DELETE), or raise \`mcp.sessions.maxPerPrincipal\` (NUXT_MCP_SESSIONS_MAX_PER_PRINCIPAL).`)
}

/** 503: the endpoint is at its cap and every session has a request in flight. */
export function tooManyOpen(caps: SessionCaps): Response {
  return jsonRpcError(503, -32000, `Too many open MCP sessions (${caps.max}), each with a request in flight. Retry later, or raise \`mcp.sessions.max\` (NUXT_MCP_SESSIONS_MAX).`)
}
