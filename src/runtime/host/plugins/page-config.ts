import { defineNitroPlugin, useRuntimeConfig } from 'nitropack/runtime'
import { pageConfigOf, useMcpHostConfig } from '../config'
// Nuxt's own render hooks, typed (erased from the build; a Nuxt app has them anyway).
import type {} from '@nuxt/nitro-server/augments'

// The chat page checks the URLs in message data against its host's (app/elicitation/host-urls.ts),
// so the page must know the host's config as the server runs it: `NUXT_MCP_HOST_APPS_SANDBOX_ORIGIN`
// and the other env overrides reach `runtimeConfig.mcpHost`, not its public half. Before each page
// is rendered (server-side or as the SPA shell), the request's own copy of the runtime config gets
// `public.mcpHost` from the server's. A page rendered without it refuses every view and answer,
// and says that its host config is missing.
export default defineNitroPlugin((nitroApp) => {
  nitroApp.hooks.hook('render:route', (_route, { event }) => {
    useRuntimeConfig(event).public.mcpHost = pageConfigOf(useMcpHostConfig(event))
  })
})
