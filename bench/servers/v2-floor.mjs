// Modern floor: a bare node:http server on the official SDK v2 server package
// (@modelcontextprotocol/server, root dependency), dual-era routed like the SDK's reference
// server: isLegacyRequest → a sessionful WebStandardStreamableHTTPServerTransport, everything
// else → createMcpHandler(factory, { legacy: 'reject' }). No Nuxt.
// Its modern flow signs and checks its `requestState` as a spec-following server must (the
// state that drives the retry is integrity-protected and bound to the caller): the SDK's own
// `createRequestStateCodec` (HMAC-SHA256 over Web Crypto), bound to the method and the client.
// It keeps no replay record (the SDK offers none).
// Env: PORT, HOST, BENCH_VARIANT=base|list.
import { createServer } from 'node:http'
import { randomBytes, randomUUID } from 'node:crypto'
import { importRoot } from '../lib/paths.mjs'
import { FORM_MESSAGE, FORM_SCHEMA, GENERATED_DESCRIPTION, GENERATED_TOOLS, GENERATED_VALUE_DESCRIPTION, SERVER_NAME, generatedToolName } from '../lib/tools-spec.mjs'
import { serveGc } from './gc-route.mjs'
import { readBody, sendWebResponse, toWebRequest } from './node-fetch.mjs'

const { McpServer, WebStandardStreamableHTTPServerTransport, acceptedContent, createMcpHandler, createRequestStateCodec, inputRequired, isLegacyRequest } = await importRoot('sdk-v2/server')
const { z } = await importRoot('zod')

const list = process.env.BENCH_VARIANT === 'list'
const answerSchema = z.object({
  name: z.string().min(2),
  age: z.number().int().min(0).optional(),
  plan: z.enum(['free', 'pro']),
  tags: z.array(z.enum(['a', 'b', 'c'])).optional(),
  subscribe: z.boolean().default(true),
})

const codec = createRequestStateCodec({
  key: randomBytes(32),
  bind: ctx => `${ctx.mcpReq.method}\0${ctx.http?.authInfo?.clientId ?? ''}`,
})

function buildServer(era) {
  const server = new McpServer({ name: SERVER_NAME, version: '1.0.0' }, { capabilities: { tools: {} }, requestState: { verify: codec.verify } })
  server.registerTool('echo', { description: 'Repeats the text', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: 'text', text }] }))
  server.registerTool('ask_form', { description: 'Asks the person for 5 fields' }, async (ctx) => {
    if (era === 'legacy') {
      const r = await ctx.mcpReq.elicitInput({ mode: 'form', message: FORM_MESSAGE, requestedSchema: FORM_SCHEMA }, { relatedRequestId: ctx.mcpReq.id })
      return { content: [{ type: 'text', text: JSON.stringify(r) }] }
    }
    const responses = ctx.mcpReq.inputResponses
    // An answer counts only under a verified state that says the form was asked.
    if (!responses?.form || ctx.mcpReq.requestState()?.asked !== 'form') {
      return inputRequired({ inputRequests: { form: inputRequired.elicit({ message: FORM_MESSAGE, requestedSchema: FORM_SCHEMA }) }, requestState: await codec.mint({ asked: 'form' }, ctx) })
    }
    const content = acceptedContent(responses, 'form', answerSchema)
    return { content: [{ type: 'text', text: JSON.stringify(content ? { action: 'accept', content } : { action: responses.form.action }) }] }
  })
  if (list) {
    for (let i = 0; i < GENERATED_TOOLS; i++) {
      server.registerTool(generatedToolName(i), { description: GENERATED_DESCRIPTION(i), inputSchema: z.object({ value: z.string().describe(GENERATED_VALUE_DESCRIPTION) }) }, async ({ value }) => ({ content: [{ type: 'text', text: value }] }))
    }
  }
  return server
}

const modern = createMcpHandler(() => buildServer('modern'), { legacy: 'reject' })
const sessions = new Map()

function jsonError(status, message) {
  return Response.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, { status })
}

async function legacy(request, parsedBody) {
  const id = request.headers.get('mcp-session-id')
  if (id) return sessions.get(id)?.handleRequest(request, { parsedBody }) ?? jsonError(404, 'Session not found')
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: sid => void sessions.set(sid, transport),
    onsessionclosed: sid => void sessions.delete(sid),
  })
  transport.onclose = () => {
    if (transport.sessionId) sessions.delete(transport.sessionId)
  }
  await buildServer('legacy').connect(transport)
  return transport.handleRequest(request, { parsedBody })
}

createServer(async (req, res) => {
  if (serveGc(req, res)) return
  if (!req.url.startsWith('/mcp')) return void res.writeHead(404).end()
  try {
    const text = req.method === 'POST' ? await readBody(req) : undefined
    let parsedBody
    try {
      parsedBody = text ? JSON.parse(text) : undefined
    }
    catch {}
    const request = toWebRequest(req, res, text)
    const response = await isLegacyRequest(request, parsedBody)
      ? await legacy(request, parsedBody)
      : await modern.fetch(request, { parsedBody })
    await sendWebResponse(res, response)
  }
  catch (error) {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: String(error) }, id: null }))
  }
}).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1')

// Exit on SIGTERM like the Nitro servers do, so `--cpu-prof` profiles get written.
process.on('SIGTERM', () => process.exit(0))
