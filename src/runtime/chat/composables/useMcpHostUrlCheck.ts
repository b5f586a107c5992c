import { useRequestURL, useRuntimeConfig } from 'nuxt/app'
import { checkHostUrl, readHostPageConfig } from '../elicitation/host-urls'
import type { McpHostUrlField } from '../elicitation/host-urls'

/**
 * {@link checkHostUrl} for this page: its URL (`useRequestURL()`, the same on the server and in the
 * browser), its host's config (`runtimeConfig.public.mcpHost`) and `nuxi dev`. Call it in a
 * component's or composable's setup; the function it returns may be called later. A refusal is
 * also logged with `console.error`, for whoever debugs the page.
 *
 * @example
 * ```ts
 * const refuseUrl = useMcpHostUrlCheck()
 * const refusal = refuseUrl('respondUrl', item.respondUrl)
 * ```
 */
export function useMcpHostUrlCheck(): (field: McpHostUrlField, value: unknown) => string | undefined {
  const context = { page: useRequestURL(), config: readHostPageConfig(useRuntimeConfig().public.mcpHost), dev: import.meta.dev }
  return (field, value) => {
    const refusal = checkHostUrl(field, value, context)
    if (refusal) console.error(`[nuxt-mcp-elicitation] ${refusal}`)
    return refusal
  }
}
