import { expect } from 'vitest'
import { isRecord } from '../../src/runtime/server/common/is-record'
import { JSON_HEADERS, LEGACY } from './raw'

// Legacy (≤ 2025-11-25) sessions spoken by hand over HTTP, for tests of the wire itself.

export interface RpcMessage {
  id?: string | number
  method?: string
  params?: Record<string, unknown>
  result?: Record<string, unknown>
  error?: { code: number, message: string }
}

export function toRpcMessage(value: unknown): RpcMessage {
  if (!isRecord(value) || value.jsonrpc !== '2.0') throw new Error(`not a JSON-RPC message: ${JSON.stringify(value)}`)
  const message: RpcMessage = {}
  if (typeof value.id === 'string' || typeof value.id === 'number') message.id = value.id
  if (typeof value.method === 'string') message.method = value.method
  if (isRecord(value.params)) message.params = value.params
  if (isRecord(value.result)) message.result = value.result
  if (isRecord(value.error) && typeof value.error.code === 'number' && typeof value.error.message === 'string') {
    message.error = { code: value.error.code, message: value.error.message }
  }
  return message
}

/** The JSON-RPC messages of an SSE response body, as they arrive. */
export async function* sseMessages(response: Response): AsyncGenerator<RpcMessage> {
  if (!response.body) return
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  try {
    for (;;) {
      const chunk = await reader.read()
      if (chunk.done) return
      buffer += chunk.value.replace(/\r\n/g, '\n')
      for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
        const event = buffer.slice(0, cut)
        buffer = buffer.slice(cut + 2)
        const data = event.split('\n').filter(line => line.startsWith('data:')).map(line => line.slice(5).trim()).join('\n')
        if (data) yield toRpcMessage(JSON.parse(data))
      }
    }
  }
  finally {
    await reader.cancel().catch(() => {})
  }
}

/** One SSE event: its id (when it has one) and its data lines joined. */
export interface SseEvent { id?: string, data: string }

/** The SSE events of a response as they come (priming events included: their data is empty). */
export async function* sseEvents(response: Response): AsyncGenerator<SseEvent> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  for (;;) {
    const chunk = await reader.read()
    if (chunk.done) return
    buffer += chunk.value
    for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
      const lines = buffer.slice(0, cut).split('\n')
      buffer = buffer.slice(cut + 2)
      if (lines.every(line => line.startsWith(':'))) continue
      const id = lines.find(line => line.startsWith('id: '))?.slice(4)
      yield { ...(id !== undefined && { id }), data: lines.filter(line => line.startsWith('data:')).map(line => line.slice(5).trim()).join('\n') }
    }
  }
}

/**
 * The next item of a stream (a JSON-RPC message of `sseMessages`, an event of `sseEvents`);
 * throws naming `what` when the stream ends first.
 *
 * @example
 * ```ts
 * const priming = await nextMessage(sseEvents(response), 'the priming event')
 * ```
 */
export async function nextMessage<T>(messages: AsyncGenerator<T>, what = 'the next message'): Promise<T> {
  const next = await messages.next()
  if (next.done) throw new Error(`the stream ended before ${what}`)
  return next.value
}

/**
 * A legacy session spoken by hand: initialize (at `version`, default 2025-11-25) + initialized,
 * then raw POSTs on it.
 */
export async function openRawLegacy(server: { url: URL }, capabilities: Record<string, unknown> = { elicitation: { form: {} } }, version = LEGACY) {
  const init = await fetch(server.url, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities, clientInfo: { name: 'raw-legacy', version: '1.0.0' } } }),
  })
  expect(init.status).toBe(200)
  const id = init.headers.get('mcp-session-id')
  await init.body?.cancel()
  if (!id) throw new Error('initialize returned no Mcp-Session-Id')
  const post = (body: Record<string, unknown>) => fetch(server.url, {
    method: 'POST',
    headers: { ...JSON_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': version },
    body: JSON.stringify(body),
  })
  const initialized = await post({ jsonrpc: '2.0', method: 'notifications/initialized' })
  expect(initialized.status).toBe(202)
  await initialized.body?.cancel()
  return {
    id,
    post,
    close: async () => {
      const response = await fetch(server.url, { method: 'DELETE', headers: { 'mcp-session-id': id, 'mcp-protocol-version': version } })
      await response.body?.cancel()
    },
  }
}

/** A JSON-RPC message from a JSON or SSE response. */
export async function singleMessage(response: Response): Promise<RpcMessage> {
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) return nextMessage(sseMessages(response), 'the response')
  return toRpcMessage(await response.json())
}
