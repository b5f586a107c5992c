/**
 * The `data-mcp-app` part the host writes into a chat's UI message stream when a tool that has
 * an MCP App view is called: what `<McpAppFrame>` needs to show it. Pure types and constants,
 * shared by the host's Nitro side and its Vue side.
 */

/** The part type (`data-` + name) in a UI message. */
export const MCP_APP_PART_TYPE = 'data-mcp-app'

/** What the host tells the page about one MCP App to show. */
export interface McpAppPartData {
  /** The tool call it belongs to: the tool part with this `toolCallId` has its input and output. */
  toolCallId: string
  toolName: string
  /** The MCP server's name, when known. */
  server?: string
  /** The view: its `ui://` URI, its HTML and its `_meta.ui` (csp, permissions, prefersBorder). */
  resource: { uri: string, html: string, meta?: { csp?: Record<string, unknown>, permissions?: Record<string, unknown>, prefersBorder?: boolean } }
  /** Where the view's own tool calls are POSTed (through the host, which holds the connection). */
  callUrl: string
  /**
   * The sandbox proxy page on an origin of its own, or `undefined` when the host has none: the
   * view is then not shown (never on the app's own origin), and the page says so.
   */
  sandboxUrl?: string
}
