// `@modelcontextprotocol/ext-tasks` task sessions over the v2 SDK `Client`, in either era, for the
// tasks tests. On 2026-07-28 the v2 `Client` cannot carry `resultType: "task"` itself, so ext-tasks
// sends tools/call and tasks/* through a raw JSON-RPC dispatcher (its README's way); this is ours.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { createTaskSessionFromClient } from '@modelcontextprotocol/ext-tasks/client'

const MODERN = '2026-07-28'
let nextId = 1

/** The first JSON-RPC response in a JSON or SSE body. */
function responseOf(text, contentType) {
  if (!contentType.includes('text/event-stream')) return JSON.parse(text)
  const messages = text.split('\n').filter(line => line.startsWith('data:')).map(line => JSON.parse(line.slice(5)))
  return messages.find(message => 'result' in message || 'error' in message)
}

/** One raw 2026-07-28 request, with the routing headers the spec asks for (`Mcp-Name` from ext-tasks for tasks/*). */
function rawDispatcher(url, headers) {
  return async (request, options = {}) => {
    const params = request.params ?? {}
    const routing = { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': request.method, ...headers, ...(options.context?.headers ?? {}) }
    if (request.method === 'tools/call') routing['mcp-name'] = params.name
    // ext-tasks hands every request of a session the session's one signal; fetch would leave a
    // listener on it per request until a GC (over a thousand in a 10-minute chaos run). Each
    // request gets a signal of its own, tied to that one for exactly as long as it runs.
    const own = new AbortController()
    const abort = () => own.abort(options.signal?.reason)
    if (options.signal?.aborted) abort()
    else options.signal?.addEventListener('abort', abort, { once: true })
    try {
      const response = await fetch(url, { method: 'POST', headers: routing, body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, ...request }), signal: own.signal })
      const type = response.headers.get('content-type') ?? ''
      // A proxy's error page (nginx's 502 while an instance is down) is no JSON-RPC answer: said as what it is.
      if (!type.includes('json') && !type.includes('text/event-stream')) throw new Error(`HTTP ${response.status} ${response.statusText} from ${url.href}: not a JSON-RPC answer`)
      const message = responseOf(await response.text(), type)
      return 'error' in message ? { kind: 'error', error: message.error } : { kind: 'result', result: message.result }
    }
    finally {
      options.signal?.removeEventListener('abort', abort)
    }
  }
}

/**
 * An ext-tasks session: `era: 'modern'` (pinned to 2026-07-28, the tasks extension) or
 * `'legacy'` (a 2025-11-25 session, experimental tasks). `onInput(request, context)` answers
 * the questions a task asks.
 *
 * @example
 * const { session, close } = await openTaskSession(url, { era: 'modern', onInput: () => ({ action: 'accept', content: { confirm: true } }) })
 */
export async function openTaskSession(url, { era = 'modern', name = 'ext-tasks-client', capabilities = { elicitation: { form: {} } }, onInput, headers = {} } = {}) {
  const clientInfo = { name, version: '1.0.0' }
  const client = new Client(clientInfo, { capabilities, versionNegotiation: { mode: era === 'modern' ? { pin: MODERN } : 'legacy' } })
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }))
  const framing = era === 'modern'
    ? { rawDispatch: rawDispatcher(url, headers), v2RequestFraming: { protocolVersion: MODERN, clientInfo, clientCapabilities: capabilities } }
    : {}
  const session = createTaskSessionFromClient(client, { endpointId: url.href, ...(onInput && { onInputRequest: onInput }), ...framing })
  return {
    session,
    client,
    close: async () => {
      await session.close()
      await client.close()
    },
  }
}
