import type { H3Event } from 'h3'
import { useMcpHostConfig } from './config'
import { createMcpHostElicitor } from './elicitor'
import type { McpHostElicitorOptions } from './elicitor'
import type { McpElicitationHandler, McpElicitationWriter } from './elicitor'
import { browserOwner, resolveOwner } from './owner'
import type { McpElicitationRegistry } from './registry'
import { useMcpElicitationRegistry } from './state'

/** Options of {@link useMcpHostElicitation}. */
export interface McpHostElicitationOptions {
  /** The route's UI message stream writer (`createUIMessageStream({ execute({ writer }) })`). */
  writer: McpElicitationWriter
  /** Overrides `mcp.host.timeoutMs` for this route. */
  timeoutMs?: number
  /** The name of the MCP server, shown above its requests (or a function read per request). */
  server?: string | (() => string | undefined)
  /** Overrides the registry set with `setMcpElicitationRegistry`. */
  registry?: McpElicitationRegistry
  /** The MCP App that renders a form naming one (SEP-3118), when the host can show it (`createMcpHostClient` sets it). */
  view?: McpHostElicitorOptions['view']
}

/** What {@link useMcpHostElicitation} returns. */
export interface McpHostElicitation {
  /**
   * Give it to the MCP client: `client.onElicitationRequest(ElicitationRequestSchema, handler)`.
   * Each request becomes a `data-mcp-elicitation` part and waits for the person's answer.
   */
  handler: McpElicitationHandler
  /** Aborted when the browser disconnects; every pending request is then answered `cancel`. */
  signal: AbortSignal
  /** Who owns this request's elicitations (and MCP App views): `undefined` when nobody can. */
  owner: Promise<string | undefined>
}

/**
 * Makes a Nitro chat route the MCP host of its MCP clients' elicitations: a server's request is
 * written into the route's UI message stream as a `data-mcp-elicitation` part, the page shows it
 * (`<McpElicitationForm>` + `useMcpChatElicitations()`), the browser POSTs the answer to the
 * respond endpoint, and the handler returns `{ action, content }` to the server.
 *
 * Call it before the first `await` of the route or of `execute` (it may set the owner cookie,
 * which must go out with the response headers).
 *
 * @example
 * ```ts
 * // server/api/chat.post.ts
 * import { createUIMessageStream, createUIMessageStreamResponse } from 'ai'
 * import { createMCPClient, ElicitationRequestSchema } from '@ai-sdk/mcp'
 *
 * export default defineEventHandler(async (event) => {
 *   const stream = createUIMessageStream({
 *     async execute({ writer }) {
 *       const { handler } = useMcpHostElicitation(event, { writer })
 *       const mcp = await createMCPClient({ transport: { type: 'http', url: 'https://mcp.example.com/mcp' }, capabilities: { elicitation: {} } })
 *       mcp.onElicitationRequest(ElicitationRequestSchema, handler)
 *       // … streamText({ tools: await mcp.tools(), … }), writer.merge(result.toUIMessageStream())
 *     },
 *   })
 *   return createUIMessageStreamResponse({ stream })
 * })
 * ```
 */
export function useMcpHostElicitation(event: H3Event, options: McpHostElicitationOptions): McpHostElicitation {
  const config = useMcpHostConfig(event)
  const controller = new AbortController()
  // 'close' fires when the response ends or the connection drops; either way nobody is left to answer.
  event.node.res.once('close', () => controller.abort())
  const cookie = browserOwner(event, { create: true })
  const owner = resolveOwner(event, cookie).catch((error: unknown) => {
    console.warn(`[nuxt-mcp-elicitation] The mcp:host-owner hook failed; elicitations of this request are cancelled: ${String(error)}`)
    return undefined
  })
  const handler = createMcpHostElicitor({
    registry: options.registry ?? useMcpElicitationRegistry(),
    owner,
    write: chunk => options.writer.write(chunk),
    timeoutMs: options.timeoutMs ?? config.timeoutMs,
    route: config.publicRoute,
    signal: controller.signal,
    ...(options.server ? { server: options.server } : {}),
    ...(options.view ? { view: options.view } : {}),
  })
  return { handler, signal: controller.signal, owner }
}
