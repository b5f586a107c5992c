import { createMCPClient, ElicitationRequestSchema } from '@ai-sdk/mcp'
import type { MCPClient, MCPClientConfig } from '@ai-sdk/mcp'
import type { H3Event } from 'h3'
import { useMcpHostElicitation } from './use-host-elicitation'
import type { McpHostElicitationOptions } from './use-host-elicitation'

/** Options of {@link createMcpHostClient}: `@ai-sdk/mcp`'s client config plus the host's. */
export type McpHostClientOptions = Omit<MCPClientConfig, 'experimental_events'> & McpHostElicitationOptions

/**
 * `@ai-sdk/mcp`'s `createMCPClient`, ready to show the server's elicitations on the page: it
 * declares the `elicitation` capability and registers {@link useMcpHostElicitation}'s handler.
 * Close it when the stream ends. Needs the optional peer dependency `@ai-sdk/mcp`.
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
  const { writer, timeoutMs, server, registry, capabilities, ...config } = options
  // Synchronous: sets the owner cookie before anything is awaited.
  let client: MCPClient | undefined
  const host = useMcpHostElicitation(event, {
    writer,
    server: server ?? (() => client?.serverInfo.name),
    ...(timeoutMs ? { timeoutMs } : {}),
    ...(registry ? { registry } : {}),
  })
  client = await createMCPClient({ ...config, capabilities: { ...capabilities, elicitation: capabilities?.elicitation ?? {} } })
  client.onElicitationRequest(ElicitationRequestSchema, host.handler)
  return client
}
