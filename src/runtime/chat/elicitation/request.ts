import type { McpElicitationRequest } from './types'

/**
 * Normalises the `params` of an `elicitation/create` request (as an MCP client such as
 * `@ai-sdk/mcp` hands it over) into {@link McpElicitationRequest}: form mode unless `mode` is
 * `url`. Returns a message instead when the request is unusable.
 *
 * @example
 * ```ts
 * toElicitationRequest({ message: 'Your name?', requestedSchema: { type: 'object', properties: {} } })
 * // { mode: 'form', message: 'Your name?', requestedSchema: { … } }
 * ```
 */
export function toElicitationRequest(params: Record<string, unknown>): McpElicitationRequest | string {
  const message = typeof params.message === 'string' ? params.message : ''
  if (params.mode === 'url') {
    if (typeof params.url !== 'string') return 'A URL-mode elicitation without a url.'
    const elicitationId = typeof params.elicitationId === 'string' ? params.elicitationId : undefined
    return { mode: 'url', message, url: params.url, ...(elicitationId ? { elicitationId } : {}) }
  }
  if (params.mode !== undefined && params.mode !== 'form') return `Unsupported elicitation mode ${JSON.stringify(params.mode)}.`
  return { mode: 'form', message, requestedSchema: params.requestedSchema ?? { type: 'object', properties: {} } }
}
