import { InMemoryServerEventBus } from '@modelcontextprotocol/server'
import type { Server, ServerEvent, ServerEventBus } from '@modelcontextprotocol/server'

/** The lists a change notification names. */
export type McpListKind = 'tools' | 'prompts' | 'resources'

type ListEvent = Exclude<ServerEvent, { kind: 'resource_updated' }>

const EVENT_OF: Record<McpListKind, ListEvent['kind']> = {
  tools: 'tools_list_changed',
  prompts: 'prompts_list_changed',
  resources: 'resources_list_changed',
}

/** One endpoint's bus, whether it advertises `listChanged`, and its legacy sessions' servers here. */
interface ListChangeTarget {
  bus: ServerEventBus
  advertised: boolean
  /** Each server with whether a list change should be sent to it from this process. */
  servers: Map<Server, () => boolean>
}

/** The endpoints of this process, by route. */
const targets = new Map<string, ListChangeTarget>()
const warned = new Set<string>()

function warnOnce(key: string, message: string): void {
  if (warned.has(key)) return
  warned.add(key)
  console.warn(`[nuxt-mcp-elicitation] ${message}`)
}

function targetOf(route: string): ListChangeTarget {
  let target = targets.get(route)
  if (!target) {
    target = { bus: new InMemoryServerEventBus(), advertised: false, servers: new Map() }
    targets.set(route, target)
  }
  return target
}

/**
 * Lets list changes reach a legacy session's server of the endpoint at `route`. `reachable`
 * says whether this process should send them (with several instances, only the one holding the
 * session's GET stream does, so that the client hears each change once). Returns what stops it.
 */
export function trackLegacyServer(route: string, server: Server, reachable: () => boolean): () => void {
  const servers = targetOf(route).servers
  servers.set(server, reachable)
  return () => void servers.delete(server)
}

function sendToLegacy(servers: Map<Server, () => boolean>, event: ServerEvent): void {
  for (const [server, reachable] of servers) {
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
 * Connects the change-event bus of the endpoint at `route`: what {@link notifyMcpListChanged}
 * publishes, every instance on the bus delivers, to its legacy sessions here and (through the
 * SDK) to its 2026-07-28 `subscriptions/listen` streams. Returns what disconnects it.
 *
 * @example
 * ```ts
 * const stop = connectListChanges('/mcp', bus, registry.guarded || config.listChanged)
 * ```
 */
export function connectListChanges(route: string, bus: ServerEventBus, advertised: boolean): () => void {
  const target = targetOf(route)
  target.bus = bus
  target.advertised = advertised
  const unsubscribe = bus.subscribe(event => sendToLegacy(target.servers, event))
  return () => {
    unsubscribe()
    if (target.bus === bus) targets.delete(route)
  }
}

/** Where {@link notifyMcpListChanged} and {@link notifyMcpResourceUpdated} send. */
export interface McpNotifyOptions {
  /**
   * The route of the one endpoint to tell (e.g. `'/mcp/admin'`). Default: every endpoint of the
   * app.
   */
  endpoint?: string
}

/**
 * Tells clients that a list changed (`notifications/{tools,prompts,resources}/list_changed`), so
 * they list it again: after a guard's answer changed, a feature flag flipped, a plugin loaded.
 * Legacy sessions hear it on their GET stream; 2026-07-28 clients on `subscriptions/listen`.
 * With `NUXT_MCP_REDIS_URL`, from any instance to the clients of all. Every endpoint of the app
 * is told, or only `options.endpoint`. Needs `listChanged` advertised there (`mcp.listChanged:
 * true`, or any definition with a guard); otherwise it says so in the log and sends nothing
 * there, as clients were told no such notification would come.
 *
 * @example
 * ```ts
 * await setFeatureFlag('beta-tools', true)
 * await notifyMcpListChanged('tools')
 * await notifyMcpListChanged('tools', { endpoint: '/mcp/admin' }) // that endpoint only
 * ```
 */
export async function notifyMcpListChanged(kinds: McpListKind | McpListKind[] = ['tools', 'prompts', 'resources'], options: McpNotifyOptions = {}): Promise<void> {
  const chosen = options.endpoint === undefined ? [...targets] : [[options.endpoint, targets.get(options.endpoint)] as const]
  for (const [route, target] of chosen) {
    if (!target) {
      warnOnce(`unknown ${route}`, `notifyMcpListChanged() sent nothing to ${route}: no endpoint at that route has served a request in this process. Check the route (e.g. '/mcp/admin').`)
      continue
    }
    if (!target.advertised) {
      warnOnce(`quiet ${route}`, `notifyMcpListChanged() sent nothing to ${route}: that endpoint does not advertise listChanged. Set mcp.listChanged: true (or mcp.endpoints.<key>.listChanged; it is on by itself when a definition has a guard).`)
      continue
    }
    for (const kind of Array.isArray(kinds) ? kinds : [kinds]) target.bus.publish({ kind: EVENT_OF[kind] })
  }
}
