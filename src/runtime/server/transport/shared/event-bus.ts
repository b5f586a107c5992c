import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server'
import { isRecord } from '../../common/is-record'
import type { McpSharedState } from '../../cluster/shared-state'
import { logLost } from './sessions'

/** The channel change events travel on between instances. */
const EVENTS_CHANNEL = 'events'

const KINDS = new Set<string>(['tools_list_changed', 'prompts_list_changed', 'resources_list_changed', 'resource_updated'])

function parseEvent(text: string): ServerEvent | undefined {
  try {
    const value: unknown = JSON.parse(text)
    if (!isRecord(value) || typeof value.kind !== 'string' || !KINDS.has(value.kind)) return undefined
    if (value.kind === 'resource_updated') return typeof value.uri === 'string' ? { kind: 'resource_updated', uri: value.uri } : undefined
    if (value.kind === 'tools_list_changed' || value.kind === 'prompts_list_changed' || value.kind === 'resources_list_changed') return { kind: value.kind }
  }
  catch {
    // Not one of ours (another version of the app mid-deploy): ignored.
  }
  return undefined
}

/**
 * The SDK's `ServerEventBus` over the shared state's pub/sub (`NUXT_MCP_REDIS_URL`): an event
 * published on any instance reaches the listeners of every instance (this one included, once
 * Redis has passed it on), so a `subscriptions/listen` stream or a legacy session held by another
 * instance hears a change raised here.
 *
 * @example
 * ```ts
 * const bus = createSharedEventBus(shared)
 * createMcpHandler(factory, { bus })
 * bus.publish({ kind: 'tools_list_changed' })
 * ```
 */
export function createSharedEventBus(shared: Promise<McpSharedState>): ServerEventBus {
  const listeners = new Set<(event: ServerEvent) => void>()
  void shared.then(state => state.subscribe(EVENTS_CHANNEL, (text) => {
    const event = parseEvent(text)
    if (event) for (const listener of listeners) listener(event)
  })).catch(logLost)
  return {
    publish: event => void shared.then(state => state.publish(EVENTS_CHANNEL, JSON.stringify(event))).catch(logLost),
    subscribe: (listener) => {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}
