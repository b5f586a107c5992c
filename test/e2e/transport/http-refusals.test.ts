import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { modernBody, modernHeaders, MODERN, postModern, readJsonRpc } from '../../utils/raw'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'

let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('basic')
})
afterAll(async () => {
  await app?.stop()
})

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }
const legacyHeaders = { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream' }

async function post(body: string, headers: Record<string, string>) {
  const response = await fetch(app.url, { method: 'POST', headers, body })
  return { status: response.status, headers: response.headers, message: await readJsonRpc(response) }
}

describe('HTTP-level refusals name the problem and the fix', () => {
  it('refuses a foreign Host on loopback (DNS rebinding) with 403 naming the option', async () => {
    // fetch() does not let us set Host, so speak HTTP/1.1 by hand.
    const { request } = await import('node:http')
    const status = await new Promise<{ code: number, body: string }>((resolve, reject) => {
      const req = request(app.url, { method: 'POST', headers: { ...legacyHeaders, host: 'evil.example:80' } }, (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => { body += chunk.toString() })
        res.on('end', () => resolve({ code: res.statusCode ?? 0, body }))
      })
      req.on('error', reject)
      req.end(JSON.stringify(initialize))
    })
    expect(status.code).toBe(403)
    expect(status.body).toMatch(/evil\.example/)
    expect(status.body).toMatch(/mcp\.allowedHosts/)
    expect(status.body).toMatch(/NUXT_MCP_ALLOWED_HOSTS/)
  })

  it('refuses a foreign Origin with 403 and accepts its own origin', async () => {
    const foreign = await post(JSON.stringify(initialize), { ...legacyHeaders, origin: 'https://evil.example' })
    expect(foreign.status).toBe(403)
    expect(foreign.message.error?.message).toMatch(/mcp\.allowedOrigins/)
    const own = await post(JSON.stringify(initialize), { ...legacyHeaders, origin: app.origin })
    expect(own.status).toBe(200)
  })

  it('refuses a body over the limit with 413', async () => {
    const huge = JSON.stringify({ ...initialize, params: { ...initialize.params, pad: 'x'.repeat(5 * 1024 * 1024) } })
    const { status, message } = await post(huge, legacyHeaders)
    expect(status).toBe(413)
    expect(message.error?.message).toMatch(/maxBodySize/)
  })

  it('refuses a wrong content type with 415', async () => {
    const { status, message } = await post(JSON.stringify(initialize), { ...legacyHeaders, 'content-type': 'text/plain' })
    expect(status).toBe(415)
    expect(message.error?.message).toMatch(/application\/json/)
  })

  it('refuses malformed JSON with 400 -32700', async () => {
    const { status, message } = await post('{"jsonrpc": "2.0", "id": 1, ', legacyHeaders)
    expect(status).toBe(400)
    expect(message.error?.code).toBe(-32700)
  })

  it('answers an unknown session with 404 and a missing one with 400', async () => {
    const unknown = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), { ...legacyHeaders, 'mcp-session-id': 'forged-session' })
    expect(unknown.status).toBe(404)
    expect(unknown.message.error?.message).toMatch(/forged-session/)
    const missing = await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }), legacyHeaders)
    expect(missing.status).toBe(400)
    expect(missing.message.error?.message).toMatch(/Mcp-Session-Id/)
  })

  it('answers PUT with 405', async () => {
    const response = await fetch(app.url, { method: 'PUT' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toMatch(/POST/)
  })

  it('modern: unsupported version, header mismatches and GET get the 2026 errors', async () => {
    const unsupported = await fetch(app.url, {
      method: 'POST',
      headers: { ...modernHeaders('tools/list', undefined), 'mcp-protocol-version': '2099-01-01' },
      body: JSON.stringify({ ...modernBody('tools/list', {}), params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
    })
    expect(unsupported.status).toBe(400)
    expect((await readJsonRpc(unsupported)).error?.code).toBe(-32022)

    const mismatch = await postModern(app.url, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { headers: { 'mcp-name': 'add' } })
    expect(mismatch.status).toBe(400)
    expect(mismatch.message.error?.code).toBe(-32020)

    const wrongMethod = await postModern(app.url, 'tools/list', {}, { headers: { 'mcp-method': 'prompts/list' } })
    expect(wrongMethod.status).toBe(400)
    expect(wrongMethod.message.error?.code).toBe(-32020)

    const get = await fetch(app.url, { headers: { 'mcp-protocol-version': MODERN, 'accept': 'text/event-stream' } })
    expect(get.status).toBe(405)
  })

  it('modern: server/discover is served', async () => {
    const { status, message } = await postModern(app.url, 'server/discover', {})
    expect(status).toBe(200)
    expect(message.result?.supportedVersions).toContain(MODERN)
  })

  it('keeps serving after all of the above', async () => {
    const { status, message } = await postModern(app.url, 'tools/call', { name: 'echo', arguments: { text: 'still here' } })
    expect(status).toBe(200)
    expect((message.result?.content as { text: string }[])[0]!.text).toBe('still here')
  })
})
