import { createMCPClient, ElicitationRequestSchema, mcpAppClientCapabilities } from '@ai-sdk/mcp'
import type { MCPClient, MCPClientConfig } from '@ai-sdk/mcp'
import type { H3Event } from 'h3'
import { useMcpHostElicitation } from './use-host-elicitation'
import type { McpHostElicitationOptions } from './use-host-elicitation'
import type { McpElicitationDataChunk } from './elicitor'
import { useMcpHostConfig } from './config'
import { withMcpAppParts } from './apps/app-tools'
import type { McpAppDataChunk } from './apps/app-tools'
import { sandboxUrlOf } from './apps/sandbox-url'
import { isRecord } from '../server/common/is-record'

/** The part of an AI SDK `UIMessageStreamWriter` the host writes to: elicitations and MCP Apps. */
export interface McpHostWriter {
  write: (chunk: McpElicitationDataChunk | McpAppDataChunk) => void
}

/** Options of {@link createMcpHostClient}: `@ai-sdk/mcp`'s client config plus the host's. */
export type McpHostClientOptions = Omit<MCPClientConfig, 'experimental_events'> & Omit<McpHostElicitationOptions, 'writer'> & {
  writer: McpHostWriter
  /**
   * Show the MCP Apps of the server's tools in the page (`data-mcp-app` parts, for
   * `<McpAppFrame>`): the client declares the apps extension, and `tools()` announces each
   * call of a tool that has a view. Default `true`.
   */
  apps?: boolean
}

/**
 * `@ai-sdk/mcp`'s `createMCPClient`, ready to show the server's elicitations on the page: it
 * declares the `elicitation` capability and registers {@link useMcpHostElicitation}'s handler;
 * with `apps` (the default) it also declares the MCP Apps extension, and the tools from its
 * `tools()` write a `data-mcp-app` part when one that has a view is called. Close it when the
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
  const host = useMcpHostElicitation(event, {
    writer,
    server: serverName,
    ...(timeoutMs ? { timeoutMs } : {}),
    ...(registry ? { registry } : {}),
  })
  const declared: unknown = capabilities?.extensions
  const extensions = apps ? { ...(isRecord(declared) ? declared : {}), ...mcpAppClientCapabilities.extensions } : isRecord(declared) ? declared : undefined
  client = await createMCPClient({ ...config, capabilities: { ...capabilities, elicitation: capabilities?.elicitation ?? {}, ...(extensions && { extensions }) } })
  client.onElicitationRequest(ElicitationRequestSchema, host.handler)
  if (!apps) return client
  const hostConfig = useMcpHostConfig(event)
  const connected = client
  const tools: MCPClient['tools'] = async toolOptions => withMcpAppParts(await connected.tools(toolOptions), {
    client: connected,
    transport: config.transport,
    write: chunk => writer.write(chunk),
    // The owner the elicitations got: one cookie per browser, set once.
    owner: host.owner,
    server: typeof serverName === 'string' ? () => serverName : serverName,
    route: hostConfig.appsRoute,
    sandboxUrl: sandboxUrlOf(event, hostConfig.appsSandboxOrigin, import.meta.dev),
    ttlMs: 30 * 60_000,
  })
  // The client itself, with `tools()` announcing views: every other method is its own.
  return Object.assign(Object.create(connected) as MCPClient, { tools })
}
