// Modern floor: a bare node:http server on the official SDK v2 server package
// (@modelcontextprotocol/server, root dependency), dual-era routed like the SDK's reference
// server: isLegacyRequest → a sessionful WebStandardStreamableHTTPServerTransport, everything
// else → createMcpHandler(factory, { legacy: 'reject' }). No Nuxt.
// Its modern flow signs and checks its `requestState` as a spec-following server must (the
// state that drives the retry is integrity-protected and bound to the caller): the SDK's own
// `createRequestStateCodec` (HMAC-SHA256 over Web Crypto), bound to the method and the client.
// It keeps no replay record (the SDK offers none).
// Env: PORT, HOST, BENCH_VARIANT=base|list; BENCH_VIEW_HTML_FILE (the apps phase): serves that
// file's HTML as the MCP App resource ui://chart, read once at module level.
import { createServer } from 'node:http'
import { randomBytes, randomUUID } from 'node:crypto'
import { importRoot } from '../lib/paths.mjs'
import { APP_TOOLS, CONFIRM_SCHEMA, CONFIRM_TOOL, FORM_MESSAGE, FORM_SCHEMA, GENERATED_DESCRIPTION, GENERATED_TOOLS, GENERATED_VALUE_DESCRIPTION, SERVER_NAME, compileAppTool, generatedToolName } from '../lib/tools-spec.mjs'
import { serveGc } from './gc-route.mjs'
import { readBody, sendWebResponse, toWebRequest } from './node-fetch.mjs'

import { readFileSync } from 'node:fs'

const { McpServer, WebStandardStreamableHTTPServerTransport, acceptedContent, createMcpHandler, createRequestStateCodec, inputRequired, isLegacyRequest } = await importRoot('sdk-v2/server')
const { z } = await importRoot('zod')

const list = process.env.BENCH_VARIANT === 'list'
// BENCH_APP_TOOLS=none (investigation aid): only echo and ask_form, the bench's tools before 2026-12-02.
const appToolsOff = process.env.BENCH_APP_TOOLS === 'none'
const appTools = appToolsOff ? [] : APP_TOOLS.map(compileAppTool)
// BENCH_SHAPES=module (investigation aid, measure/floor-shapes.mjs): the tools' Zod schemas built
// once at module level instead of in the per-request factory as the SDK's examples write them.
const echoInput = z.object({ text: z.string() })
const moduleShapes = process.env.BENCH_SHAPES === 'module' ? new Map(appTools.map(tool => [tool.name, z.object(tool.makeShape(z))])) : undefined
const answerSchema = z.object({
  name: z.string().min(2),
  age: z.number().int().min(0).optional(),
  plan: z.enum(['free', 'pro']),
  tags: z.array(z.enum(['a', 'b', 'c'])).optional(),
  subscribe: z.boolean().default(true),
})
const confirmSchema = z.object({ confirm: z.boolean() })

// The apps phase's floor: the same view's HTML, held at module level, served as the SDK serves a resource.
const viewHtml = process.env.BENCH_VIEW_HTML_FILE ? readFileSync(process.env.BENCH_VIEW_HTML_FILE, 'utf8') : undefined
const VIEW_MIME = 'text/html;profile=mcp-app'

const codec = createRequestStateCodec({
  key: randomBytes(32),
  bind: ctx => `${ctx.mcpReq.method}\0${ctx.http?.authInfo?.clientId ?? ''}`,
})

/** A tool asking one form: pushed in a legacy session, input_required + signed state in modern. */
function registerAskTool(server, era, { name, description, message, requestedSchema, answer, reply }) {
  server.registerTool(name, { description }, async (ctx) => {
    if (era === 'legacy') {
      const r = await ctx.mcpReq.elicitInput({ mode: 'form', message, requestedSchema }, { relatedRequestId: ctx.mcpReq.id })
      return { content: [{ type: 'text', text: reply(r) }] }
    }
    const responses = ctx.mcpReq.inputResponses
    // An answer counts only under a verified state that says the form was asked.
    if (!responses?.form || ctx.mcpReq.requestState()?.asked !== 'form') {
      return inputRequired({ inputRequests: { form: inputRequired.elicit({ message, requestedSchema }) }, requestState: await codec.mint({ asked: 'form' }, ctx) })
    }
    const content = acceptedContent(responses, 'form', answer)
    return { content: [{ type: 'text', text: reply(content ? { action: 'accept', content } : { action: responses.form.action }) }] }
  })
}

function buildServer(era) {
  const server = new McpServer({ name: SERVER_NAME, version: '1.0.0' }, { capabilities: { tools: {} }, requestState: { verify: codec.verify } })
  server.registerTool('echo', { description: 'Repeats the text', inputSchema: moduleShapes ? echoInput : z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: 'text', text }] }))
  registerAskTool(server, era, { name: 'ask_form', description: 'Asks the person for 5 fields', message: FORM_MESSAGE, requestedSchema: FORM_SCHEMA, answer: answerSchema, reply: r => JSON.stringify(r) })
  if (!appToolsOff) registerAskTool(server, era, { name: CONFIRM_TOOL.name, description: CONFIRM_TOOL.description, message: CONFIRM_TOOL.message, requestedSchema: CONFIRM_SCHEMA, answer: confirmSchema, reply: r => (r.action === 'accept' && r.content?.confirm ? 'deleted' : 'kept') })
  for (const tool of appTools) {
    server.registerTool(tool.name, { description: tool.description, inputSchema: moduleShapes?.get(tool.name) ?? z.object(tool.makeShape(z)) }, async args => ({ content: [{ type: 'text', text: tool.run(args) }] }))
  }
  if (viewHtml !== undefined) {
    server.registerResource('chart', 'ui://chart', { mimeType: VIEW_MIME }, async uri => ({ contents: [{ uri: uri.href, mimeType: VIEW_MIME, text: viewHtml }] }))
  }
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
