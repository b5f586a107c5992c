import { classifyInboundRequest, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server'
import { describe, expect, it } from 'vitest'
import { classifyEra, isClaimedModernMessage, isPlainLegacyMessage } from '../../../../src/runtime/server/transport/door/era'

const claim = { [PROTOCOL_VERSION_META_KEY]: '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }

// Bodies and headers a server meets, legacy and modern, well-formed and not.
const bodies: unknown[] = [
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } },
  { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } },
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', _meta: { progressToken: 5 } } },
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', _meta: claim } },
  { jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: claim } },
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { [PROTOCOL_VERSION_META_KEY]: 7 } } },
  { jsonrpc: '2.0', id: null, method: 'tools/list' },
  { jsonrpc: '2.0', id: {}, method: 'tools/list' },
  { jsonrpc: '2.0', id: 1, method: 'tools/list', params: [1, 2] },
  { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: 'x' } },
  { jsonrpc: '1.0', id: 1, method: 'tools/list' },
  { jsonrpc: '2.0', id: 1, result: {} },
  { jsonrpc: '2.0', id: 'r', result: { action: 'accept', content: { name: 'Ada' } } },
  { jsonrpc: '2.0', id: 1, error: { code: 1, message: 'm' } },
  { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'm' } },
  { jsonrpc: '2.0', id: 1, error: { code: 1 } },
  { jsonrpc: '2.0', id: 1, result: 'text' },
  { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'm' } },
  { jsonrpc: '2.0', id: null, result: {} },
  { jsonrpc: '2.0', result: {} },
  { jsonrpc: '2.0', id: 1 },
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2026-07-28', capabilities: {}, clientInfo: { name: 'c', version: '1' }, _meta: claim } },
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { _meta: { [PROTOCOL_VERSION_META_KEY]: 7 } } },
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', _meta: { [PROTOCOL_VERSION_META_KEY]: '2025-11-25' } } },
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: claim }, result: {} },
  { jsonrpc: '2.0', id: null, method: 'tools/call', params: { _meta: claim } },
  { jsonrpc: '2.0', id: 1, method: 5, params: { _meta: claim } },
  { id: 1, method: 'tools/call', params: { _meta: claim } },
  [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }],
  [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: claim } }],
  'text',
  null,
]
const versionHeaders = [undefined, '2025-11-25', '2025-03-26', ' 2025-11-25 ', '2026-07-28', '2027-01-01', 'garbage']

describe('era classification', () => {
  it('agrees with the SDK classifier on every body and header combination', () => {
    for (const body of bodies) {
      for (const version of versionHeaders) {
        const headers = version === undefined ? {} : { 'mcp-protocol-version': version }
        const sdk = classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader: version, body }).kind === 'legacy' ? 'legacy' : 'modern'
        expect(classifyEra('POST', headers, body), `${JSON.stringify(body)} with ${version}`).toBe(sdk)
      }
    }
  })

  it('takes the shortcut for plain session traffic, and never for a modern claim or header', () => {
    expect(isPlainLegacyMessage({ 'mcp-protocol-version': '2025-11-25' }, bodies[0])).toBe(true)
    expect(isPlainLegacyMessage({}, bodies[2])).toBe(true)
    expect(isPlainLegacyMessage({}, { jsonrpc: '2.0', id: 0, result: { action: 'decline' } })).toBe(true)
    expect(isPlainLegacyMessage({}, bodies[5])).toBe(false)
    expect(isPlainLegacyMessage({ 'mcp-protocol-version': '2026-07-28' }, bodies[0])).toBe(false)
  })

  it('takes the modern shortcut only for a claimed request or notification that is not initialize', () => {
    expect(isClaimedModernMessage(bodies[5])).toBe(true)
    expect(isClaimedModernMessage(bodies[6])).toBe(true)
    expect(isClaimedModernMessage(bodies[0])).toBe(false)
    expect(isClaimedModernMessage({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { _meta: claim } })).toBe(false)
  })

  it('sends every non-POST method to legacy sessions', () => {
    expect(classifyEra('GET', { 'mcp-protocol-version': '2026-07-28' }, undefined)).toBe('legacy')
    expect(classifyEra('DELETE', {}, undefined)).toBe('legacy')
  })
})
