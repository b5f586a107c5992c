// The smallest node:http <-> web Request/Response bridge for the v2 floor (what
// @modelcontextprotocol/node's toNodeHandler does): read the body once, hand the parsed body on,
// flush SSE headers at once, pipe the response, abort the request when the client goes away.

export async function readBody(req) {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  return Buffer.concat(chunks).toString('utf8')
}

export function toWebRequest(req, res, text) {
  const controller = new AbortController()
  res.once('close', () => {
    if (!res.writableFinished) controller.abort()
  })
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item)
    else if (value !== undefined) headers.set(name, value)
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && text !== undefined
  return new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url}`, { method: req.method, headers, body: hasBody ? text : undefined, signal: controller.signal })
}

export async function sendWebResponse(res, response) {
  res.statusCode = response.status
  response.headers.forEach((value, name) => res.setHeader(name, value))
  if (!response.body) return void res.end()
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    return void res.end(Buffer.from(await response.arrayBuffer()))
  }
  res.flushHeaders()
  const reader = response.body.getReader()
  res.once('close', () => void reader.cancel().catch(() => {}))
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done || res.destroyed) break
      if (!res.write(value)) await new Promise(r => res.once('drain', r))
    }
  }
  catch {}
  if (!res.writableEnded) res.end()
}
