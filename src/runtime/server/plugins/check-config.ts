import { defineNitroPlugin, useRuntimeConfig } from 'nitropack/runtime'
import { checkStateSecret, withCheckedLimits } from '../common/config'
import type { McpServerConfig } from '../common/config'
import { publicHostOf } from '../transport/door/security'

// Refuses a configuration that cannot be served safely when the server starts, instead of at the
// first MCP request: a state secret under 32 bytes in production, a public URL that is no URL.
// Only what is set is checked, and nothing is generated: on Workers this runs in the Worker's
// global scope, where random values may not be made and env vars may not be visible yet (the
// endpoint checks again at its first request, with the request's env). A bound that is no number
// is said here, once, and its default used by every endpoint.
export default defineNitroPlugin(() => {
  const config = useRuntimeConfig().mcp as McpServerConfig
  checkStateSecret(config, !import.meta.dev)
  publicHostOf(config.publicUrl)
  withCheckedLimits(config)
})
