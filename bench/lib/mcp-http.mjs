// A raw MCP-over-HTTP client for the harness (node:http, one keep-alive agent): legacy sessions,
// streamed POSTs with SSE parsing, the GET stream, and modern request headers and bodies.
import http from 'node:http'

export const LEGACY_VERSION = '2025-11-25'
export const MODERN_VERSION = '2026-07-28'
const ACCEPT = 'application/json, text/event-stream'

export const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity })

let nextId = 1
export const newId = () => nextId++

/** Parses SSE text incrementally; calls onMessage with each JSON `data:` payload. */
export function sseParser(onMessage) {
  let buffer = ''
  return (chunk) => {
    buffer += chunk
    let cut
    while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const event = buffer.slice(0, cut)
      buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, '')
      const data = event.split(/\r?\n/).filter(line => line.startsWith('data:')).map(line => line.slice(5).trimStart()).join('\n')
      if (data) onMessage(JSON.parse(data))
    }
  }
}

/**
 * One HTTP request. JSON responses give `messages: [body]`; SSE responses are parsed as they
 * arrive (`onMessage` for each) and resolve when the stream ends.
 */
export function send(url, { method = 'POST', headers = {}, body, onMessage, signal } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body))
    const req = http.request(url, {
      method,
      agent,
      signal,
      headers: { accept: ACCEPT, ...(payload && { 'content-type': 'application/json', 'content-length': payload.length }), ...headers },
    }, (res) => {
      const messages = []
      const collect = (message) => {
        messages.push(message)
        onMessage?.(message)
      }
      const sse = (res.headers['content-type'] ?? '').startsWith('text/event-stream')
      const parse = sse ? sseParser(collect) : undefined
      let text = ''
      res.setEncoding('utf8')
      res.on('data', chunk => (parse ? parse(chunk) : (text += chunk)))
      res.on('end', () => {
        if (!sse && text) {
          try {
            collect(JSON.parse(text))
          }
          catch {}
        }
        resolve({ status: res.statusCode, headers: res.headers, messages, text })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(payload)
  })
}

export function legacyHeaders(sessionId) {
  return { 'mcp-protocol-version': LEGACY_VERSION, ...(sessionId && { 'mcp-session-id': sessionId }) }
}

/** initialize + notifications/initialized; resolves with the session id. */
export async function openSession(url, capabilities = { elicitation: { form: {} } }) {
  const init = await send(url, {
    body: { jsonrpc: '2.0', id: newId(), method: 'initialize', params: { protocolVersion: LEGACY_VERSION, capabilities, clientInfo: { name: 'bench', version: '1.0.0' } } },
  })
  const sessionId = init.headers['mcp-session-id']
  if (init.status !== 200 || !sessionId || !init.messages[0]?.result) throw new Error(`initialize failed: HTTP ${init.status} ${init.text.slice(0, 300)}`)
  const ack = await send(url, { headers: legacyHeaders(sessionId), body: { jsonrpc: '2.0', method: 'notifications/initialized' } })
  if (ack.status >= 300) throw new Error(`notifications/initialized failed: HTTP ${ack.status}`)
  return sessionId
}

export async function closeSession(url, sessionId) {
  await send(url, { method: 'DELETE', headers: legacyHeaders(sessionId) }).catch(() => {})
}

/** Opens the session's GET stream (server-initiated requests not tied to a POST arrive there). */
export function openGetStream(url, sessionId, onMessage) {
  const controller = new AbortController()
  const done = send(url, { method: 'GET', headers: { ...legacyHeaders(sessionId), accept: 'text/event-stream' }, onMessage, signal: controller.signal }).catch(() => {})
  return { close: () => controller.abort(), done }
}

export function legacyCall(url, sessionId, method, params, onMessage) {
  return send(url, { headers: legacyHeaders(sessionId), body: { jsonrpc: '2.0', id: newId(), method, params }, onMessage })
}

/** The 2026-07-28 envelope every modern request carries. */
export function modernMeta(capabilities = { elicitation: { form: {} } }) {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
  }
}

export function modernHeaders(method, name) {
  return { 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': method, ...(name !== undefined && { 'mcp-name': name }) }
}

export function modernBody(method, params, id = newId()) {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: modernMeta() } }
}

export function modernCall(url, method, params) {
  return send(url, { headers: modernHeaders(method, params.name), body: modernBody(method, params) })
}

export function legacyBody(method, params, id = newId()) {
  return { jsonrpc: '2.0', id, method, params }
}
