import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'

// --- A transparent recording proxy (real bytes, forwarded unchanged) --------------------------

export interface Exchange {
  verb: string
  path: string
  /** JSON-RPC methods in the request body; a JSON-RPC answer (client → server) shows as `(response)`. */
  rpc: string[]
  protocolVersion: string | undefined
  requestBody: string
  status: number
  responseBody: string
}

function rpcMethods(text: string): string[] {
  if (!text) return []
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  }
  catch {
    return ['(unparsable)']
  }
  const list: unknown[] = Array.isArray(parsed) ? parsed : [parsed]
  return list.map(message => typeof message === 'object' && message !== null && 'method' in message && typeof message.method === 'string' ? message.method : '(response)')
}

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'accept-encoding'])

/**
 * A transparent recording proxy on loopback: forwards every byte to `target` unchanged and keeps
 * what went by, so a test can prove which era and which messages a real client used.
 */
export async function startRecorder(target: URL) {
  const exchanges: Exchange[] = []
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(Buffer.from(chunk))
    const body = Buffer.concat(chunks)
    const headers = new Headers()
    for (const [key, value] of Object.entries(req.headers)) {
      if (value === undefined || HOP_BY_HOP.has(key)) continue
      headers.set(key, Array.isArray(value) ? value.join(', ') : value)
    }
    const abort = new AbortController()
    res.on('close', () => abort.abort())
    const header = req.headers['mcp-protocol-version']
    const exchange: Exchange = {
      verb: req.method ?? 'GET',
      path: req.url ?? '/',
      rpc: rpcMethods(body.toString()),
      protocolVersion: Array.isArray(header) ? header[0] : header,
      requestBody: body.toString(),
      status: 0,
      responseBody: '',
    }
    exchanges.push(exchange)
    let upstream: Response
    try {
      upstream = await fetch(new URL(exchange.path, target.origin), { method: exchange.verb, headers, body: body.length > 0 ? body : undefined, signal: abort.signal })
    }
    catch {
      if (!res.headersSent) res.writeHead(502)
      res.end()
      return
    }
    exchange.status = upstream.status
    const out: Record<string, string> = {}
    upstream.headers.forEach((value, key) => {
      if (!HOP_BY_HOP.has(key) && key !== 'content-encoding') out[key] = value
    })
    res.writeHead(upstream.status, out)
    if (upstream.body) {
      const reader = upstream.body.getReader()
      try {
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          exchange.responseBody += Buffer.from(value).toString()
          res.write(value)
        }
      }
      catch {
        // The client went away (e.g. a standalone GET stream at shutdown).
      }
    }
    res.end()
  }
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy())
  })
  await new Promise<void>(done => server.listen(0, '127.0.0.1', done))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: new URL(`http://127.0.0.1:${port}${target.pathname}`),
    exchanges,
    close: () => new Promise<void>((done) => {
      server.closeAllConnections()
      server.close(() => done())
    }),
  }
}
