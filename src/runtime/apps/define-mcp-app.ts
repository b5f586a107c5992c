import type { McpUiResourceCsp, McpUiResourcePermissions } from '@modelcontextprotocol/ext-apps'

/** What a view (`app/mcp/<name>.vue`) declares about itself. Read at build time: write plain data. */
export interface McpAppDefinition {
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

/**
 * Declares a view's metadata inside its `<script setup>`. Auto-imported in `app/mcp/*.vue`. The
 * module reads the object at build time (it becomes the resource's `_meta.ui`); at run time the
 * call does nothing.
 *
 * @example
 * ```vue
 * <script setup lang="ts">
 * defineMcpApp({ description: 'A chart of the week', prefersBorder: true, csp: { connectDomains: ['https://api.example.com'] } })
 * </script>
 * ```
 */
export function defineMcpApp(definition: McpAppDefinition): McpAppDefinition {
  return definition
}
