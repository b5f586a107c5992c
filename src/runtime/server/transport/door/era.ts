import { classifyInboundRequest, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server'
import type { IncomingHttpHeaders } from 'node:http'
import { isRecord } from '../../common/is-record'

/** The first protocol revision of the stateless (modern) era. */
const FIRST_MODERN_VERSION = '2026-07-28'

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

function isPlainResponse(body: Record<string, unknown>): boolean {
  const { result, error } = body
  if ('result' in body) return !('error' in body) && isRecord(result)
  return isRecord(error) && Number.isInteger(error.code) && typeof error.message === 'string'
}

/**
 * True when the SDK's classifier would certainly answer "legacy": a single JSON-RPC response, or
 * a single request or notification with no per-request envelope claim
 * (`_meta[PROTOCOL_VERSION_META_KEY]`), and no modern `MCP-Protocol-Version` header. That is every message of a legacy session; the full
 * classifier validates with Zod and costs more than serving a plain tool call.
 */
export function isPlainLegacyMessage(headers: IncomingHttpHeaders, body: unknown): boolean {
  const version = headerValue(headers, 'mcp-protocol-version')?.trim()
  if (version !== undefined && version >= FIRST_MODERN_VERSION) return false
  if (!isRecord(body) || body.jsonrpc !== '2.0') return false
  const { id, params } = body
  const idIsValid = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))
  // A client's answer to a pushed question (a JSON-RPC response) is always session traffic.
  if (!('method' in body)) return idIsValid && isPlainResponse(body)
  if (typeof body.method !== 'string' || (id !== undefined && !idIsValid)) return false
  if (params === undefined) return true
  if (!isRecord(params)) return false
  const meta = params._meta
  return meta === undefined || (isRecord(meta) && !(PROTOCOL_VERSION_META_KEY in meta))
}

/**
 * True when the SDK's classifier would certainly not answer "legacy": a single request or
 * notification (not `initialize`, whose invalid claim still means legacy) whose params carry the
 * envelope claim. The classifier then says "modern" or refuses it, and a refusal is the modern
 * handler's to answer: either way the request goes there, and that handler classifies it again.
 */
export function isClaimedModernMessage(body: unknown): boolean {
  if (!isRecord(body) || typeof body.method !== 'string' || body.method === 'initialize') return false
  // A body that could also read as a JSON-RPC response is left to the classifier.
  if ('result' in body || 'error' in body) return false
  const params = body.params
  if (!isRecord(params)) return false
  const meta = params._meta
  return isRecord(meta) && PROTOCOL_VERSION_META_KEY in meta
}

/**
 * Which era serves this HTTP request, by the SDK's own rules (those behind `isLegacyRequest`),
 * read from the Node headers and the parsed body: no web `Request` is built to decide.
 *
 * @example
 * ```ts
 * const era = classifyEra('POST', event.node.req.headers, parsedBody)
 * ```
 */
export function classifyEra(httpMethod: string, headers: IncomingHttpHeaders, body: unknown): 'legacy' | 'modern' {
  if (httpMethod !== 'POST' || isPlainLegacyMessage(headers, body)) return 'legacy'
  if (isClaimedModernMessage(body)) return 'modern'
  const outcome = classifyInboundRequest({
    httpMethod,
    protocolVersionHeader: headerValue(headers, 'mcp-protocol-version'),
    mcpMethodHeader: headerValue(headers, 'mcp-method'),
    mcpNameHeader: headerValue(headers, 'mcp-name'),
    ...(body !== undefined && { body }),
  })
  // Rejections go to the modern handler, which answers them with the SDK's own error.
  return outcome.kind === 'legacy' ? 'legacy' : 'modern'
}
