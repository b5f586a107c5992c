import type { UrlCompletionRelay } from '../../elicitation/url-completion'
import type { SharedSessionDirectory } from './sessions'

/**
 * The URL-completion relay over the shared state: which instance asked each URL flow, and a
 * completion called elsewhere handed to it through the mailbox.
 *
 * @example
 * ```ts
 * relayUrlCompletions(createUrlCompletionRelay(directory, completeLocalUrlElicitation))
 * ```
 */
export function createUrlCompletionRelay(directory: SharedSessionDirectory, completeHere: (elicitationId: string) => Promise<boolean>): UrlCompletionRelay {
  const key = (id: string) => `url:${id}`
  const lost = (error: unknown) => console.error('[nuxt-mcp-elicitation] A URL elicitation could not be recorded for the other instances:', error instanceof Error ? error.message : error)
  return {
    remember: (id, windowMs) => void directory.shared.put(key(id), directory.instanceId, windowMs).catch(lost),
    forget: id => void directory.shared.delete(key(id)).catch(lost),
    complete: async (id) => {
      const owner = await directory.shared.get(key(id))
      if (!owner) return false
      if (owner === directory.instanceId) return completeHere(id)
      await directory.shared.delete(key(id))
      // In the asking instance's inbox: read there now, or once its connection is back.
      const sent = await directory.sendTo(owner, { kind: 'url-complete', elicitationId: id })
      if (sent.outcome === 'unreachable') console.error(`[nuxt-mcp-elicitation] A URL elicitation's completion was not handed to instance ${owner}, which asked it: ${sent.reason}. Its flow ends with its own timeout.`)
      return sent.outcome !== 'unreachable' && sent.outcome !== 'gone'
    },
  }
}
