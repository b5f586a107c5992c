import { createMCPClient, ElicitationRequestSchema, mcpAppClientCapabilities, readMCPAppResource } from '@ai-sdk/mcp'
import { getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge'
import type { MCPClient, MCPClientConfig } from '@ai-sdk/mcp'
import type { H3Event } from 'h3'
import { useMcpHostElicitation } from './use-host-elicitation'
import type { McpHostElicitationOptions } from './use-host-elicitation'
import type { McpElicitationDataChunk } from './elicitor'
import { useMcpHostConfig } from './config'
import { listAllTools, withMcpViewParts } from './view-frame/view-tools'
import type { McpViewDataChunk } from './view-frame/view-tools'
import { sandboxUrlOf } from './view-frame/sandbox-url'
import { isRecord } from '../server/common/is-record'
import type { McpViewPartData } from '../chat/elicitation/view-part'

/** The part of an AI SDK `UIMessageStreamWriter` the host writes to: elicitations and MCP Apps. */
export interface McpHostWriter {
  write: (chunk: McpElicitationDataChunk | McpViewDataChunk) => void
}

const UI = 'io.modelcontextprotocol/ui'

/**
 * The view of a form whose `_meta.ui.resourceUri` names one (app-rendered elicitation, SEP-3118):
 * read from the asking server, for `<McpViewFrame>` to render the form in; its answer goes to the
 * respond endpoint like any.
 */
async function formView(client: MCPClient, params: Record<string, unknown>, id: string, sandboxUrl: string): Promise<McpViewPartData | undefined> {
  // ext-apps reads a tool's `_meta.ui.resourceUri`; a form's `_meta` carries it the same way.
  const uri = isRecord(params._meta) ? getToolUiResourceUri({ _meta: params._meta }) : undefined
  if (!uri) return undefined
  const { html, meta } = await readMCPAppResource({ client, uri })
  // A form's view asks, it calls no tools: no call URL.
  return { toolCallId: id, toolName: 'elicitation', uri, shown: { html, ...(meta && { meta }), sandboxUrl } }
}

/** Options of {@link createMcpHostClient}: `@ai-sdk/mcp`'s client config plus the host's. */
export type McpHostClientOptions = Omit<MCPClientConfig, 'experimental_events'> & Omit<McpHostElicitationOptions, 'writer'> & {
  writer: McpHostWriter
  /**
   * Show the MCP Apps of the server's tools in the page (`data-mcp-view` parts, for
   * `<McpViewFrame>`): the client declares the apps extension, and `tools()` announces each
   * call of a tool that has a view. Default `true`.
   */
  apps?: boolean
}

/**
 * `@ai-sdk/mcp`'s `createMCPClient`, ready to show the server's elicitations on the page: it
 * declares the `elicitation` capability and registers {@link useMcpHostElicitation}'s handler;
 * with `apps` (the default) it also declares the MCP Apps extension, and the tools from its
 * `tools()` write a `data-mcp-view` part when one that has a view is called. Close it when the
 * stream ends. Needs the optional peer dependency `@ai-sdk/mcp`.
 *
 * @example
 * ```ts
 * const stream = createUIMessageStream({
 *   async execute({ writer }) {
 *     const mcp = await createMcpHostClient(event, { writer, transport: { type: 'http', url: 'https://mcp.example.com/mcp' } })
 *     try {
 *       const result = streamText({ model, messages, tools: await mcp.tools(), stopWhen: stepCountIs(5) })
 *       writer.merge(result.toUIMessageStream())
 *       await result.consumeStream()
 *     }
 *     finally {
 *       await mcp.close()
 *     }
 *   },
 * })
 * ```
 */
export async function createMcpHostClient(event: H3Event, options: McpHostClientOptions): Promise<MCPClient> {
  const { writer, timeoutMs, server, registry, capabilities, apps = true, ...config } = options
  // Synchronous: sets the owner cookie before anything is awaited.
  let client: MCPClient | undefined
  const serverName = server ?? (() => client?.serverInfo.name)
  const hostConfig = useMcpHostConfig(event)
  // Views need a sandbox on another origin: without one, none is announced or asked for.
  const sandboxUrl = apps ? sandboxUrlOf(event, hostConfig.appsSandboxOrigin, import.meta.dev) : undefined
  const host = useMcpHostElicitation(event, {
    writer,
    server: serverName,
    ...(timeoutMs ? { timeoutMs } : {}),
    ...(registry ? { registry } : {}),
    ...(sandboxUrl && { view: (params, id) => client ? formView(client, params, id, sandboxUrl) : Promise.resolve(undefined) }),
  })
  const declared: unknown = capabilities?.extensions
  const extensions = apps ? { ...(isRecord(declared) ? declared : {}), [UI]: { ...mcpAppClientCapabilities.extensions[UI], ...(sandboxUrl && { elicitation: {} }) } } : isRecord(declared) ? declared : undefined
  client = await createMCPClient({ ...config, capabilities: { ...capabilities, elicitation: capabilities?.elicitation ?? { form: {} }, ...(extensions && { extensions }) } })
  client.onElicitationRequest(ElicitationRequestSchema, host.handler)
  if (!apps) return client
  const connected = client
  const tools: MCPClient['tools'] = async (toolOptions) => {
    // One listing for both the tool set and the views it may show.
    const definitions = await listAllTools(connected)
    return withMcpViewParts(connected.toolsFromDefinitions(definitions, toolOptions), definitions.tools, {
      client: connected,
      transport: config.transport,
      write: chunk => writer.write(chunk),
      // The owner the elicitations got: one cookie per browser, set once.
      owner: host.owner,
      server: typeof serverName === 'string' ? () => serverName : serverName,
      route: hostConfig.appsRoute,
      sandboxUrl,
      ttlMs: 30 * 60_000,
    })
  }
  // The client itself, with `tools()` announcing views: every other method is its own.
  return Object.assign(Object.create(connected) as MCPClient, { tools })
}
