/**
 * Hand-built 2026-07-28 requests, for checking the wire itself (rounds, keys, errors) where an SDK
 * client would hide it by retrying on its own.
 */
import { textOf } from './clients'

export const MODERN = '2026-07-28'

/** The newest legacy revision, the one sessions negotiate (2025-11-25). */
export const LEGACY = '2025-11-25'

/** The headers of a JSON-RPC POST: a JSON body, and a JSON or event-stream answer accepted. */
export const JSON_HEADERS: Record<string, string> = { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream' }

export interface RawModernOptions {
  capabilities?: Record<string, unknown>
  /** Extra or replacement headers. */
  headers?: Record<string, string>
  id?: number
}

let nextId = 1

export function modernBody(method: string, params: Record<string, unknown>, options: RawModernOptions = {}) {
  return {
    jsonrpc: '2.0',
    id: options.id ?? nextId++,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? { elicitation: { form: {}, url: {} } },
        'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1.0.0' },
      },
    },
  }
}

export function modernHeaders(method: string, name: string | undefined): Record<string, string> {
  return {
    'content-type': 'application/json',
    'accept': 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    ...(name !== undefined && { 'mcp-name': name }),
  }
}

/** Parses a JSON or single-event SSE response body into the JSON-RPC message. */
export async function readJsonRpc(response: Response): Promise<{ result?: Record<string, unknown>, error?: { code: number, message: string, data?: unknown } }> {
  const text = await response.text()
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const data = text.split('\n').filter(line => line.startsWith('data:')).map(line => line.slice(5).trim()).filter(Boolean)
    return JSON.parse(data.at(-1) ?? '{}')
  }
  return JSON.parse(text)
}

/** POSTs one modern request; `name` fills `Mcp-Name` for tools/call, prompts/get, resources/read. */
export async function postModern(url: URL, method: string, params: Record<string, unknown>, options: RawModernOptions = {}) {
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...modernHeaders(method, name), ...options.headers },
    body: JSON.stringify(modernBody(method, params, options)),
  })
  return { status: response.status, headers: response.headers, message: await readJsonRpc(response) }
}

/** A POST with any headers, Host included (fetch cannot set Host): status and body text. */
export async function postRaw(url: URL | string, headers: Record<string, string>, body: string): Promise<{ status: number, body: string }> {
  const { request } = await import('node:http')
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      let text = ''
      res.on('data', (chunk: Buffer) => { text += chunk.toString() })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/**
 * How often a fixture's tools ran what `key` names (`ask_form:<label>`, `ask_charge:<label>`,
 * `task_deploy:build`…), read from its `runs` tool over a stateless modern request, which opens no
 * session; 0 when it never ran.
 *
 * @example
 * ```ts
 * expect(await runsOf(app, 'ask_form:tamper')).toBe(before)
 * ```
 */
export async function runsOf(server: { url: URL }, key: string): Promise<number> {
  const { message } = await postModern(server.url, 'tools/call', { name: 'runs', arguments: {} })
  const runs: unknown = JSON.parse(textOf(message.result))
  if (typeof runs !== 'object' || runs === null || Array.isArray(runs)) throw new Error(`the runs tool gave ${JSON.stringify(runs)}, not counts by key`)
  const count = (runs as Record<string, unknown>)[key]
  return typeof count === 'number' ? count : 0
}
