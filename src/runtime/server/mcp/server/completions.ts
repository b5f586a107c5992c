import type { Server } from '@modelcontextprotocol/server'
import type { McpCompleter } from '../definitions/definitions'
import type { McpRegistry } from '../definitions/registry'
import type { HiddenCheck } from '../definitions/guards'

/** At most this many values go into one completion result (the spec's limit). */
const MAX_VALUES = 100

async function findCompleter(registry: McpRegistry, ref: { type: string, name?: string, uri?: string }, argument: string, hidden: HiddenCheck): Promise<McpCompleter | undefined> {
  if (ref.type === 'ref/prompt' && ref.name) {
    const prompt = registry.prompts.get(ref.name)
    return await hidden(prompt) ? undefined : prompt?.definition.complete?.[argument]
  }
  if (ref.type === 'ref/resource' && ref.uri) {
    const resource = registry.templates.find(entry => entry.definition.uri === ref.uri) ?? registry.resources.get(ref.uri)
    return await hidden(resource) ? undefined : resource?.definition.complete?.[argument]
  }
  return undefined
}

/**
 * Answers `completion/complete` from the `complete` functions of prompts and resource templates.
 * An argument without a completer gets an empty list, as the spec allows.
 *
 * @example
 * ```ts
 * installCompletionHandler(server, registry, async found => !found)
 * ```
 */
export function installCompletionHandler(server: Server, registry: McpRegistry, hidden: HiddenCheck): void {
  server.setRequestHandler('completion/complete', async (request) => {
    const { ref, argument, context } = request.params
    const completer = await findCompleter(registry, ref, argument.name, hidden)
    const values = completer ? await completer(argument.value, { arguments: context?.arguments ?? {} }) : []
    return { completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES } }
  })
}
