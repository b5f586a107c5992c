import type { Server, ServerEvent, ServerEventBus } from '@modelcontextprotocol/server'

/** The lists a change notification names. */
export type McpListKind = 'tools' | 'prompts' | 'resources'

type ListEvent = Exclude<ServerEvent, { kind: 'resource_updated' }>

const EVENT_OF: Record<McpListKind, ListEvent['kind']> = {
  tools: 'tools_list_changed',
  prompts: 'prompts_list_changed',
  resources: 'resources_list_changed',
}

/** The legacy sessions' servers of this process, each with whether a list change should be sent from here. */
const legacyServers = new Map<Server, () => boolean>()

let endpoint: { bus: ServerEventBus, advertised: boolean } | undefined
let warned = false

/**
 * Lets list changes reach a legacy session's server. `reachable` says whether this process
 * should send them (with several instances, only the one holding the session's GET stream does,
 * so that the client hears each change once). Returns what stops it.
 */
export function trackLegacyServer(server: Server, reachable: () => boolean): () => void {
  legacyServers.set(server, reachable)
  return () => void legacyServers.delete(server)
}

function sendToLegacy(event: ServerEvent): void {
  for (const [server, reachable] of legacyServers) {
    if (!reachable()) continue
    const sent = event.kind === 'tools_list_changed'
      ? server.sendToolListChanged()
      : event.kind === 'prompts_list_changed'
        ? server.sendPromptListChanged()
        : event.kind === 'resources_list_changed' ? server.sendResourceListChanged() : undefined
    void sent?.catch(() => {})
  }
}

/**
 * Connects the endpoint's change-event bus: what {@link notifyMcpListChanged} publishes, every
 * instance on the bus delivers, to its legacy sessions here and (through the SDK) to its
 * 2026-07-28 `subscriptions/listen` streams. Returns what disconnects it.
 *
 * @example
 * ```ts
 * const stop = connectListChanges(bus, registry.guarded || config.listChanged)
 * ```
 */
export function connectListChanges(bus: ServerEventBus, advertised: boolean): () => void {
  endpoint = { bus, advertised }
  const unsubscribe = bus.subscribe(sendToLegacy)
  return () => {
    unsubscribe()
    if (endpoint?.bus === bus) endpoint = undefined
  }
}

/**
 * Tells clients that a list changed (`notifications/{tools,prompts,resources}/list_changed`), so
 * they list it again: after a guard's answer changed, a feature flag flipped, a plugin loaded.
 * Legacy sessions hear it on their GET stream; 2026-07-28 clients on `subscriptions/listen`.
 * With `NUXT_MCP_REDIS_URL`, from any instance to the clients of all. Needs `listChanged`
 * advertised (`mcp.listChanged: true`, or any definition with a guard); otherwise it says so in the
 * log and sends nothing, as clients were told no such notification would come.
 *
 * @example
 * ```ts
 * await setFeatureFlag('beta-tools', true)
 * await notifyMcpListChanged('tools')
 * ```
 */
export async function notifyMcpListChanged(kinds: McpListKind | McpListKind[] = ['tools', 'prompts', 'resources']): Promise<void> {
  if (!endpoint) return
  if (!endpoint.advertised) {
    if (!warned) console.warn('[nuxt-mcp-elicitation] notifyMcpListChanged() sent nothing: the endpoint does not advertise listChanged. Set mcp.listChanged: true (it is on by itself when a definition has a guard).')
    warned = true
    return
  }
  for (const kind of Array.isArray(kinds) ? kinds : [kinds]) endpoint.bus.publish({ kind: EVENT_OF[kind] })
}
