/**
 * The `data-mcp-view` part the host writes into a chat's UI message stream when a tool that has
 * an MCP App view is called: what `<McpViewFrame>` needs to show it. Pure types and constants,
 * shared by the host's Nitro side and its Vue side.
 */

/** The part type (`data-` + name) in a UI message. */
export const MCP_VIEW_PART_TYPE = 'data-mcp-view'

/** What the page needs to run a view, when the host can show it. */
export interface McpViewShown {
  /** The view's HTML and its `_meta.ui` (csp, permissions, prefersBorder). */
  html: string
  meta?: { csp?: Record<string, unknown>, permissions?: Record<string, unknown>, prefersBorder?: boolean }
  /** The sandbox proxy page, on an origin of its own. */
  sandboxUrl: string
  /** Where the view's own tool calls are POSTed (through the host, which holds the connection); none for a form a view renders. */
  callUrl?: string
}

/** What the host tells the page about one MCP App. */
export interface McpViewPartData {
  /** The tool call it belongs to (for a form a view renders: the elicitation's id). */
  toolCallId: string
  toolName: string
  /** The MCP server's name, when known. */
  server?: string
  /** The view's `ui://` URI. */
  uri: string
  /**
   * How to run it; absent when the host has no sandbox origin: the view is then not shown (never
   * on the app's own origin), nor read from the server, and the page says so.
   */
  shown?: McpViewShown
}
