import { defineEventHandler } from 'h3'
import type { H3Event } from 'h3'
import { useNitroApp, useRuntimeConfig } from 'nitropack/runtime'
import definitions from '#mcp-elicitation/definitions'
import { createMcpEndpoint } from '../endpoint'
import type { McpEndpoint } from '../endpoint'
import type { McpServerConfig } from '../config'

let endpoint: McpEndpoint | undefined

function useEndpoint(event: H3Event): McpEndpoint {
  if (endpoint) return endpoint
  const nitro = useNitroApp()
  const config = useRuntimeConfig(event).mcp as McpServerConfig
  const created = createMcpEndpoint({
    definitions,
    config,
    production: !import.meta.dev,
    authenticate: context => nitro.hooks.callHook('mcp:auth', context),
  })
  nitro.hooks.hook('close', () => created.close())
  endpoint = created
  return created
}

export default defineEventHandler(event => useEndpoint(event).serve(event))
