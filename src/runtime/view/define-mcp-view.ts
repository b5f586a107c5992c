import type { McpUiResourceCsp, McpUiResourcePermissions, McpUiToolMeta } from '@modelcontextprotocol/ext-apps'
import type { z } from 'zod'

/** What a view (`app/mcp/<name>.vue`) declares about itself. Read at build time: write plain data. */
export interface McpViewDefinition {
  /** Shown by hosts that list resources. */
  title?: string
  description?: string
  /** Origins the view may reach (`connectDomains`) or load from (`resourceDomains`, …); none by default. */
  csp?: McpUiResourceCsp
  /** Browser permissions the view asks the host for (camera, microphone, geolocation, clipboardWrite). */
  permissions?: McpUiResourcePermissions
  /** A dedicated origin for the view, in the host's format. */
  domain?: string
  /** Whether the host should draw a border around the view. */
  prefersBorder?: boolean
}

/** A Zod raw shape, as a tool's `inputSchema` is written. */
type Shape = Record<string, z.ZodType>

/**
 * A tool declared inside the view (@nuxtjs/mcp-toolkit's way): moved to the server at build time,
 * never shipped to the browser. Same keys as `defineMcpTool`; `visibility: ['app']` for a tool
 * only the view calls.
 */
export interface McpViewTool<S extends Shape> {
  name?: string
  inputSchema?: S
  outputSchema?: Shape
  annotations?: Record<string, unknown>
  visibility?: McpUiToolMeta['visibility']
  /** Its return value is the view's `data` (a plain object becomes `structuredContent`). */
  handler: (args: z.output<z.ZodObject<S>>, context: { signal: AbortSignal }) => unknown
}

/**
 * Declares a view's metadata inside its `<script setup>`. Auto-imported in `app/mcp/*.vue`. The
 * module reads the object at build time (it becomes the resource's `_meta.ui`); at run time the
 * call does nothing.
 *
 * @example
 * ```vue
 * <script setup lang="ts">
 * defineMcpView({ description: 'A chart of the week', prefersBorder: true, csp: { connectDomains: ['https://api.example.com'] } })
 * // or, as in @nuxtjs/mcp-toolkit, with the tool itself (its handler runs on the server):
 * defineMcpView({ description: 'Weather', inputSchema: { city: z.string() }, handler: async ({ city }) => ({ city, celsius: 21 }) })
 * </script>
 * ```
 */
export function defineMcpView<S extends Shape = Record<string, never>>(definition: McpViewDefinition & Partial<McpViewTool<S>>): void {
  // Read at build time (metadata, and a tool moved to the server); nothing to do at run time.
  void definition
}
