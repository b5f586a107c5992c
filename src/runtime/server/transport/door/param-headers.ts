import type { IncomingHttpHeaders } from 'node:http'
import type { McpHeaderParam } from '../../mcp/definitions/header-params'
import type { McpRegistry } from '../../mcp/definitions/registry'
import { mayUse } from '../../mcp/definitions/guards'
import type { McpRequestScope } from '../../common/context'
import { isRecord } from '../../common/is-record'
import { jsonRpcError } from '../http/errors'

/** SEP-2243's error for headers that disagree with the body (answered with 400). */
const HEADER_MISMATCH = -32020
const SENTINEL_START = '=?base64?'
const SENTINEL_END = '?='
/** Canonical Base64: padded, no other characters. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
/** What a plain header value may hold (a client sends anything else as `=?base64?…?=`). */
const PLAIN = /^[\t\x20-\x7E]*$/

/** The argument's value as a client mirrors it; `undefined` when there is none to mirror. */
function mirroredValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return String(value)
  if (typeof value === 'number' && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value))) return String(value)
  return undefined
}

/** A header value decoded: Base64 inside the sentinel, else the value itself; `undefined` when it cannot be. */
function decoded(raw: string): string | undefined {
  if (raw.startsWith(SENTINEL_START) && raw.endsWith(SENTINEL_END) && raw.length >= SENTINEL_START.length + SENTINEL_END.length) {
    const payload = raw.slice(SENTINEL_START.length, -SENTINEL_END.length)
    if (!BASE64.test(payload)) return undefined
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(payload), char => char.charCodeAt(0)))
    }
    catch {
      return undefined
    }
  }
  return PLAIN.test(raw) ? raw : undefined
}

function valueAt(args: unknown, path: string[]): unknown {
  return path.reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), args)
}

/** What is wrong with one parameter's header; `undefined` when it agrees with the body (or the body has no value for it). */
export function paramHeaderProblem(param: McpHeaderParam, args: unknown, headers: IncomingHttpHeaders): string | undefined {
  const value = valueAt(args, param.path)
  const expected = mirroredValue(value)
  if (expected === undefined) return undefined
  const name = `Mcp-Param-${param.header}`
  const argument = `${param.path.join('.')}=${JSON.stringify(value)}`
  const raw = headers[name.toLowerCase()]
  if (raw === undefined) return `the body carries ${argument} but the ${name} header is absent: send it with the argument's value`
  const text = typeof raw === 'string' ? decoded(raw) : undefined
  if (text === undefined) return `the ${name} header is not a valid value: send printable ASCII as it is, and anything else as =?base64?<canonical Base64 of its UTF-8>?=`
  const agrees = typeof value === 'number' && /^-?\d+(?:\.\d+)?$/.test(text) ? Number(text) === value : text === expected
  return agrees ? undefined : `the ${name} header says ${JSON.stringify(text)} but the body carries ${argument}: send the same value in both`
}

/**
 * Checks a 2026-07-28 `tools/call`'s `Mcp-Param-*` headers against its arguments (SEP-2243), as
 * the SDK does only for its high-level `McpServer`: a header missing where the body has the
 * value, one that does not decode, or one that disagrees is refused with 400 and `-32020`,
 * naming the header. Only for a call the SDK would otherwise take (its standard headers name this
 * tool) and a tool the caller may use: anything else is the SDK's to refuse, and a hidden tool's
 * headers are not revealed.
 *
 * @example
 * ```ts
 * const refused = await refuseParamHeaders(event.node.req.headers, body, registry, scope)
 * if (refused) return refused
 * ```
 */
export async function refuseParamHeaders(headers: IncomingHttpHeaders, body: unknown, registry: McpRegistry, scope: McpRequestScope): Promise<Response | undefined> {
  if (!isRecord(body) || body.method !== 'tools/call' || !isRecord(body.params) || typeof body.params.name !== 'string') return undefined
  const tool = registry.tools.get(body.params.name)
  if (!tool || tool.headerParams.length === 0) return undefined
  if (headers['mcp-method'] !== 'tools/call' || headers['mcp-name'] !== tool.name) return undefined
  if (!await mayUse(tool.definition, scope, tool.name)) return undefined
  for (const param of tool.headerParams) {
    const problem = paramHeaderProblem(param, body.params.arguments, headers)
    if (problem === undefined) continue
    const id = typeof body.id === 'string' || typeof body.id === 'number' ? body.id : null
    return jsonRpcError(400, HEADER_MISMATCH, `Bad Request: the request headers and body disagree: ${problem}.`, {}, id, { header: `Mcp-Param-${param.header}`, argument: param.path.join('.') })
  }
  return undefined
}
