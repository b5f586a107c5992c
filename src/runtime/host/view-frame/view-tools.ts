import { readMCPAppResource } from '@ai-sdk/mcp'
import { getToolUiResourceUri, isToolVisibilityModelOnly } from '@modelcontextprotocol/ext-apps/app-bridge'
import type { MCPClient, MCPClientConfig } from '@ai-sdk/mcp'
import { MCP_VIEW_PART_TYPE } from '../../chat/elicitation/view-part'
import type { McpViewPartData, McpViewShown } from '../../chat/elicitation/view-part'
import { keepViewSession } from './sessions'

/** The UI message chunk the host writes for a view to show: a `data-mcp-view` part. */
export interface McpViewDataChunk {
  type: typeof MCP_VIEW_PART_TYPE
  id: string
  data: McpViewPartData
}

/** What the apps side of a chat request needs from the host. */
export interface McpViewsContext {
  client: Pick<MCPClient, 'readResource'>
  transport: MCPClientConfig['transport']
  write: (chunk: McpViewDataChunk) => void
  owner: Promise<string | undefined>
  server: () => string | undefined
  /** `<prefix>/:id/call`'s prefix under the app's base URL. */
  route: string
  /** The sandbox proxy page's URL, or `undefined` when the host has no origin for it. */
  sandboxUrl: string | undefined
  /** How long a view's tool calls stay possible. */
  ttlMs: number
}

/** A tool as the server lists it (`tools/list`), as far as its view goes. */
type ListedTool = Awaited<ReturnType<MCPClient['listTools']>>['tools'][number]

/** A tool's view, read by ext-apps (both keys hosts read); a malformed URI shows no view. */
function viewOf(tool: ListedTool): string | undefined {
  try {
    return getToolUiResourceUri({ _meta: tool._meta })
  }
  catch {
    return undefined
  }
}

/**
 * Every tool the server lists, all pages: one listing serves both the chat's tool set
 * (`toolsFromDefinitions`) and its views, where `tools()` would list them a second time.
 *
 * @example
 * ```ts
 * const definitions = await listAllTools(client)
 * const tools = client.toolsFromDefinitions(definitions)
 * ```
 */
export async function listAllTools(client: Pick<MCPClient, 'listTools'>): Promise<Awaited<ReturnType<MCPClient['listTools']>>> {
  let page = await client.listTools()
  const tools = [...page.tools]
  while (page.nextCursor != null) {
    page = await client.listTools({ params: { cursor: page.nextCursor } })
    tools.push(...page.tools)
  }
  return { ...page, tools }
}

/** The `toolCallId` the AI SDK hands a tool's `execute` as its second argument. */
function toolCallIdOf(options: unknown): string | undefined {
  return typeof options === 'object' && options !== null && 'toolCallId' in options && typeof options.toolCallId === 'string' ? options.toolCallId : undefined
}

/**
 * Wraps a chat's MCP tool set so that calling a tool that has an MCP App view also writes a
 * `data-mcp-view` part: the view's HTML and metadata (read once per URI), where its own tool
 * calls go, and the sandbox to show it in. The tool call itself is unchanged.
 *
 * @example
 * ```ts
 * const definitions = await listAllTools(client)
 * const tools = withMcpViewParts(client.toolsFromDefinitions(definitions), definitions.tools, context)
 * ```
 */
export function withMcpViewParts<T extends object>(tools: T, definitions: ListedTool[], context: McpViewsContext): T {
  const views = new Map(definitions.map(tool => [tool.name, viewOf(tool)]))
  const callable = new Set(definitions.filter(tool => !isToolVisibilityModelOnly({ _meta: tool._meta })).map(tool => tool.name))
  const resources = new Map<string, ReturnType<typeof readMCPAppResource>>()
  let sessionId: Promise<string | undefined> | undefined
  const session = () => sessionId ??= context.owner.then(owner => owner === undefined ? undefined : keepViewSession({ owner, transport: context.transport, callable, expiresAt: Date.now() + context.ttlMs }))

  /** The view's HTML, and the session for its tool calls: only where it can be shown. */
  async function shownAt(uri: string, sandboxUrl: string): Promise<McpViewShown | undefined> {
    const id = await session()
    if (!id) return undefined
    let resource = resources.get(uri)
    if (!resource) resources.set(uri, resource = readMCPAppResource({ client: context.client, uri }))
    const { html, meta } = await resource
    return { html, ...(meta && { meta }), sandboxUrl, callUrl: `${context.route}/${id}/call` }
  }

  async function announce(toolName: string, uri: string, toolCallId: string): Promise<void> {
    const shown = context.sandboxUrl ? await shownAt(uri, context.sandboxUrl) : undefined
    const server = context.server()
    const data: McpViewPartData = { toolCallId, toolName, uri, ...(shown && { shown }), ...(server && { server }) }
    context.write({ type: MCP_VIEW_PART_TYPE, id: `mcp-view-${toolCallId}`, data })
  }

  // The set is the one `tools()` just made for this caller: its tools are replaced in place, so
  // the set keeps its own type.
  for (const [name, tool] of Object.entries(tools)) {
    const uri = views.get(name)
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
