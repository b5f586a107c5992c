import { defineNitroPlugin, useRuntimeConfig } from 'nitropack/runtime'
import { resolveStateSecret } from '../common/config'
import type { McpServerConfig } from '../common/config'
import { publicHostOf } from '../transport/security'

// Refuses a configuration that cannot be served safely when the server starts (on Node; where
// env arrives with the first request, as on Workers, Nitro runs plugins then), instead of on the
// first MCP request: a state secret under 32 bytes in production, a public URL that is no URL.
export default defineNitroPlugin(() => {
  const config = useRuntimeConfig().mcp as McpServerConfig
  resolveStateSecret(config, !import.meta.dev)
  publicHostOf(config.publicUrl)
})
