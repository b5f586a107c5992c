import { addComponent, addImports, addServerHandler, addServerImports, addServerPlugin, resolvePath } from '@nuxt/kit'
import type { Nuxt } from '@nuxt/schema'
import { defu } from 'defu'
import { isRecord } from './common'
import type { RuntimePath } from './virtual-modules'

/** Options of `mcp.host` (when not just `true`). */
export interface McpHostOptions {
  /** Prefix of the respond endpoint. @default '/api/_mcp/elicitations' */
  route?: string
  /** How long a pending elicitation waits before the host answers `cancel` (`NUXT_MCP_HOST_TIMEOUT_MS`). @default 300000 */
  timeoutMs?: number
  /** MCP Apps in the chat page (`<McpViewFrame>`). */
  apps?: {
    /**
     * The origin (or host name, on this server's port) of the views' sandbox: never the app's own
     * (`NUXT_MCP_HOST_APPS_SANDBOX_ORIGIN`). In `nuxi dev` the other loopback name by default
     * (`localhost` ↔ `127.0.0.1`); without it in production, views are not shown, and the page says so.
     */
    sandboxOrigin?: string
  }
}

/**
 * Build-time setup of the host side: the respond endpoint, the server auto-imports, the
 * `<McpElicitationForm>` component and the `useMcpChatElicitations` composable; for MCP Apps the
 * views' call endpoint, the sandbox page and `<McpViewFrame>`; and the plugin that gives each page
 * the host's routes and sandbox origin (`runtimeConfig.public.mcpHost`) to check message data
 * against. Called only when `mcp.host` is set, so an app that only serves MCP registers none of it.
 * `runtime` resolves next to the module's entry (`src/module.ts`), which the package build bundles
 * this file into.
 *
 * @example
 * ```ts
 * if (options.host) await setupMcpHost(options.host === true ? {} : options.host, nuxt, runtime)
 * ```
 */
export async function setupMcpHost(options: McpHostOptions, nuxt: Nuxt, runtime: RuntimePath): Promise<void> {
  const route = (options.route ?? '/api/_mcp/elicitations').replace(/\/+$/, '')
  const existing: unknown = nuxt.options.runtimeConfig.mcpHost
  nuxt.options.runtimeConfig.mcpHost = defu(isRecord(existing) ? existing : {}, { route, timeoutMs: options.timeoutMs ?? 5 * 60_000, appsSandboxOrigin: options.apps?.sandboxOrigin ?? '' })
  // What the page checks message data against (runtime/chat/elicitation/host-urls.ts), copied from
  // the server's runtime config, env overrides included, before each page renders.
  addServerPlugin(runtime('host/plugins/page-config'))
  const hostIndex = runtime('host/index')
  addServerImports(['useMcpHostElicitation', 'createMcpHostClient', 'createMcpMemoryElicitationRegistry', 'setMcpElicitationRegistry', 'useMcpElicitationRegistry'].map(name => ({ name, from: hostIndex })))
  addServerHandler({ route: `${route}/:id`, method: 'post', handler: runtime('host/routes/respond') })
  addComponent({ name: 'McpElicitationForm', filePath: await resolvePath(runtime('chat/components/McpElicitationForm')) })
  // MCP Apps: a view's tool calls go through the host; the sandbox page is framed from another origin.
  addServerHandler({ route: '/api/_mcp/apps/:id/call', method: 'post', handler: runtime('host/routes/view-call') })
  addServerHandler({ route: '/_mcp/apps/sandbox', method: 'get', handler: runtime('host/routes/view-sandbox') })
  addComponent({ name: 'McpViewFrame', filePath: await resolvePath(runtime('chat/components/McpViewFrame')) })
  nuxt.options.css.push(runtime('chat/components/mcp-elicitation.css'))
  addImports({ name: 'useMcpChatElicitations', from: runtime('chat/composables/useMcpChatElicitations') })
}
