import { readMCPAppResource } from '@ai-sdk/mcp'
import type { MCPClient, MCPClientConfig } from '@ai-sdk/mcp'
import { MCP_APP_PART_TYPE } from '../../app/elicitation/app-part'
import type { McpAppPartData } from '../../app/elicitation/app-part'
import { keepAppSession } from './sessions'

/** The UI message chunk the host writes for a view to show: a `data-mcp-app` part. */
export interface McpAppDataChunk {
  type: typeof MCP_APP_PART_TYPE
  id: string
  data: McpAppPartData
}

/** What the apps side of a chat request needs from the host. */
export interface McpAppsContext {
  client: Pick<MCPClient, 'listTools' | 'readResource'>
  transport: MCPClientConfig['transport']
  write: (chunk: McpAppDataChunk) => void
  owner: Promise<string | undefined>
  server: () => string | undefined
  /** `<prefix>/:id/call`'s prefix under the app's base URL. */
  route: string
  /** The sandbox proxy page's URL, or `undefined` when the host has no origin for it. */
  sandboxUrl: string | undefined
  /** How long a view's tool calls stay possible. */
  ttlMs: number
}

/** A tool's view, from its `_meta` (both keys hosts read), and whether a view may call it. */
function uiOf(meta: unknown): { uri?: string, callable: boolean } {
  if (typeof meta !== 'object' || meta === null) return { callable: true }
  const ui: unknown = 'ui' in meta ? meta.ui : undefined
  const record = typeof ui === 'object' && ui !== null ? ui : {}
  const nested = 'resourceUri' in record && typeof record.resourceUri === 'string' ? record.resourceUri : undefined
  const flat = 'ui/resourceUri' in meta && typeof meta['ui/resourceUri'] === 'string' ? meta['ui/resourceUri'] : undefined
  const visibility = 'visibility' in record && Array.isArray(record.visibility) ? record.visibility : undefined
  const uri = nested ?? flat
  return { ...(uri?.startsWith('ui://') && { uri }), callable: !visibility || visibility.includes('app') }
}

/** The `toolCallId` the AI SDK hands a tool's `execute` as its second argument. */
function toolCallIdOf(options: unknown): string | undefined {
  return typeof options === 'object' && options !== null && 'toolCallId' in options && typeof options.toolCallId === 'string' ? options.toolCallId : undefined
}

/**
 * Wraps a chat's MCP tool set so that calling a tool that has an MCP App view also writes a
 * `data-mcp-app` part: the view's HTML and metadata (read once per URI), where its own tool
 * calls go, and the sandbox to show it in. The tool call itself is unchanged.
 *
 * @example
 * ```ts
 * const tools = await withMcpAppParts(await client.tools(), context)
 * ```
 */
export async function withMcpAppParts<T extends object>(tools: T, context: McpAppsContext): Promise<T> {
  const { tools: definitions } = await context.client.listTools()
  const views = new Map(definitions.map(tool => [tool.name, uiOf(tool._meta)]))
  const callable = new Set(definitions.filter(tool => uiOf(tool._meta).callable).map(tool => tool.name))
  const resources = new Map<string, ReturnType<typeof readMCPAppResource>>()
  let sessionId: Promise<string | undefined> | undefined
  const session = () => sessionId ??= context.owner.then(owner => owner === undefined ? undefined : keepAppSession({ owner, transport: context.transport, callable, expiresAt: Date.now() + context.ttlMs }))

  async function announce(toolName: string, uri: string, toolCallId: string): Promise<void> {
    const id = await session()
    if (!id) return
    let resource = resources.get(uri)
    if (!resource) resources.set(uri, resource = readMCPAppResource({ client: context.client, uri }))
    const { html, meta } = await resource
    const data: McpAppPartData = { toolCallId, toolName, resource: { uri, html, ...(meta && { meta }) }, callUrl: `${context.route}/${id}/call`, ...(context.sandboxUrl && { sandboxUrl: context.sandboxUrl }), ...(context.server() && { server: context.server() }) }
    context.write({ type: MCP_APP_PART_TYPE, id: `mcp-app-${toolCallId}`, data })
  }

  // The set is the one `tools()` just made for this caller: its tools are replaced in place, so
  // the set keeps its own type.
  for (const [name, tool] of Object.entries(tools)) {
    const uri = views.get(name)?.uri
    const execute: unknown = typeof tool === 'object' && tool !== null && 'execute' in tool ? tool.execute : undefined
    if (!uri || typeof execute !== 'function') continue
    Reflect.set(tools, name, {
      ...tool,
      execute: async (...args: unknown[]) => {
        const toolCallId = toolCallIdOf(args[1])
        // A view that cannot be read is not worth failing the call for: the tool's result still shows.
        if (toolCallId) await announce(name, uri, toolCallId).catch((error: unknown) => console.warn(`[nuxt-mcp-elicitation] The MCP App ${uri} of tool "${name}" could not be read, so it is not shown: ${String(error)}`))
        return Reflect.apply(execute, tool, args)
      },
    })
  }
  return tools
}
