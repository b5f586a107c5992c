import { addComponent, addImports, addServerHandler, addServerImports, createResolver } from '@nuxt/kit'
import type { Nuxt } from '@nuxt/schema'
import { defu } from 'defu'

/** Options of `mcp.host` (when not just `true`). */
export interface McpHostOptions {
  /** Prefix of the respond endpoint. @default '/api/_mcp/elicitations' */
  route?: string
  /** How long a pending elicitation waits before the host answers `cancel` (`NUXT_MCP_HOST_TIMEOUT_MS`). @default 300000 */
  timeoutMs?: number
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Build-time setup of the host side: the respond endpoint, the server auto-imports, the
 * `<McpElicitationForm>` component and the `useMcpChatElicitations` composable. Called only when
 * `mcp.host` is set, so an app that only serves MCP registers none of it.
 */
export async function setupMcpHost(options: McpHostOptions, nuxt: Nuxt): Promise<void> {
  const resolver = createResolver(import.meta.url)
  const route = (options.route ?? '/api/_mcp/elicitations').replace(/\/+$/, '')
  const existing: unknown = nuxt.options.runtimeConfig.mcpHost
  nuxt.options.runtimeConfig.mcpHost = defu(isRecord(existing) ? existing : {}, { route, timeoutMs: options.timeoutMs ?? 5 * 60_000 })
  const hostIndex = resolver.resolve('./runtime/host/index')
  addServerImports([
    ...['useMcpHostElicitation', 'createMemoryElicitationRegistry', 'setMcpElicitationRegistry', 'useMcpElicitationRegistry'].map(name => ({ name, from: hostIndex })),
    { name: 'createMcpHostClient', from: resolver.resolve('./runtime/host/client') },
  ])
  addServerHandler({ route: `${route}/:id`, method: 'post', handler: resolver.resolve('./runtime/host/routes/respond') })
  addComponent({ name: 'McpElicitationForm', filePath: await resolver.resolvePath('./runtime/app/components/McpElicitationForm') })
  nuxt.options.css.push(resolver.resolve('./runtime/app/components/mcp-elicitation.css'))
  addImports({ name: 'useMcpChatElicitations', from: resolver.resolve('./runtime/app/composables/useMcpChatElicitations') })
}
