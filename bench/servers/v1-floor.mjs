// Legacy floor: plain node:http + the v1 SDK (@modelcontextprotocol/sdk, root devDependency) with
// its Node Streamable HTTP transport and in-memory sessions, as in the SDK's README.
// Env: PORT, HOST, BENCH_VARIANT=base|list; BENCH_ALS=1 runs each request inside an
// AsyncLocalStorage scope, as a server whose handlers read their request from a composable must;
// BENCH_ALS=2 inside two nested ones (the module keeps a request scope and an elicitation run)
// (measure/als-cost.mjs prices that alone).
import { AsyncLocalStorage } from 'node:async_hooks'
import { createServer } from 'node:http'
import { randomUUID } from 'node:crypto'
import { importRoot } from '../lib/paths.mjs'
import { APP_TOOLS, CONFIRM_SCHEMA, CONFIRM_TOOL, FORM_MESSAGE, FORM_SCHEMA, GENERATED_DESCRIPTION, GENERATED_TOOLS, GENERATED_VALUE_DESCRIPTION, SERVER_NAME, compileAppTool, generatedToolName } from '../lib/tools-spec.mjs'
import { serveGc } from './gc-route.mjs'

const { McpServer } = await importRoot('sdk-v1/server-mcp')
const { StreamableHTTPServerTransport } = await importRoot('sdk-v1/server-http')
const { isInitializeRequest } = await importRoot('sdk-v1/types')
const { z } = await importRoot('zod')

const list = process.env.BENCH_VARIANT === 'list'
const appTools = APP_TOOLS.map(compileAppTool)

function buildServer() {
  const server = new McpServer({ name: SERVER_NAME, version: '1.0.0' }, { capabilities: { tools: {} } })
  server.registerTool('echo', { description: 'Repeats the text', inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }))
  server.registerTool('ask_form', { description: 'Asks the person for 5 fields' }, async (extra) => {
    const r = await server.server.elicitInput({ mode: 'form', message: FORM_MESSAGE, requestedSchema: FORM_SCHEMA }, { relatedRequestId: extra.requestId })
    return { content: [{ type: 'text', text: JSON.stringify(r) }] }
  })
  server.registerTool(CONFIRM_TOOL.name, { description: CONFIRM_TOOL.description }, async (extra) => {
    const r = await server.server.elicitInput({ mode: 'form', message: CONFIRM_TOOL.message, requestedSchema: CONFIRM_SCHEMA }, { relatedRequestId: extra.requestId })
    return { content: [{ type: 'text', text: r.action === 'accept' && r.content?.confirm ? 'deleted' : 'kept' }] }
  })
  for (const tool of appTools) {
    server.registerTool(tool.name, { description: tool.description, inputSchema: tool.makeShape(z) }, async args => ({ content: [{ type: 'text', text: tool.run(args) }] }))
  }
  if (list) {
    for (let i = 0; i < GENERATED_TOOLS; i++) {
      server.registerTool(generatedToolName(i), { description: GENERATED_DESCRIPTION(i), inputSchema: { value: z.string().describe(GENERATED_VALUE_DESCRIPTION) } }, async ({ value }) => ({ content: [{ type: 'text', text: value }] }))
    }
  }
  return server
}

const sessions = new Map()

function fail(res, status, message) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }))
}

async function readJson(req) {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  return JSON.parse(Buffer.concat(chunks).toString('utf8'))
}

const scopes = Array.from({ length: Number(process.env.BENCH_ALS ?? 0) }, () => new AsyncLocalStorage())

/** `serve` inside every scope in turn (none without BENCH_ALS). */
function serveScoped(req, res, depth = 0) {
  return depth < scopes.length ? scopes[depth].run({ req }, serveScoped, req, res, depth + 1) : serve(req, res)
}

async function serve(req, res) {
  if (serveGc(req, res)) return
  if (!req.url.startsWith('/mcp')) return fail(res, 404, 'not found')
  try {
    const body = req.method === 'POST' ? await readJson(req) : undefined
    const id = req.headers['mcp-session-id']
    const existing = id && sessions.get(id)
    if (existing) return await existing.handleRequest(req, res, body)
    if (id) return fail(res, 404, 'Session not found')
    if (req.method !== 'POST' || !isInitializeRequest(body)) return fail(res, 400, 'Bad Request: no valid session ID provided')
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: sid => void sessions.set(sid, transport),
    })
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId)
    }
    await buildServer().connect(transport)
    await transport.handleRequest(req, res, body)
  }
  catch (error) {
    if (!res.headersSent) fail(res, 500, String(error))
  }
}

createServer((req, res) => serveScoped(req, res)).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1')

// Exit on SIGTERM like the Nitro servers do, so `--cpu-prof` profiles get written.
process.on('SIGTERM', () => process.exit(0))
