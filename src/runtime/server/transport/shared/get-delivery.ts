import type { JSONRPCMessage } from '@modelcontextprotocol/server'
import { instanceOfStream } from '../streams/journal'
import { DELIVERY_DEADLINE_MS, tryUntil } from '../../cluster/try-until'
import type { SharedSessionDirectory } from './sessions'

/** What one GET-stream delivery needs: where the stream is, and how this instance keeps a message itself. */
export interface GetDelivery {
  directory: SharedSessionDirectory
  sessionId: string
  /** How the server's log names the session: its tag, never its id (an anonymous session's credential). */
  sessionTag: () => string
  message: JSONRPCMessage
  /** The journal that took the session's GET stream last (`<instance>.g<n>`); `undefined` when unknown. */
  holderOf: () => Promise<string | undefined>
  /** Keeps the message on this instance's GET stream (journal, and the connection when open); `false` when it has none. */
  keepHere: () => boolean
}

/**
 * Hands a server request for a session's GET stream (a task's question, pushed outside any
 * POST) to the instance whose journal holds the stream, as a letter of the mailbox, and tries
 * again (one tag for all tries) until that instance says it kept it: the message then lives in that journal, and a client that reconnects anywhere
 * with `Last-Event-ID` gets it. A broadcast would be lost while the holder is dead or between
 * connections, and a question lost is a call that hangs; so each try reads the holder again (a
 * client back on another instance is the new holder, this one included), for
 * {@link DELIVERY_DEADLINE_MS}. Resolves `true` once kept; `false` after, logged with the cause.
 *
 * @example
 * ```ts
 * void deliverToGetHolder({ directory, sessionId, sessionTag: () => tagOf(sessionId), message, holderOf, keepHere: () => get.keep(message) })
 * ```
 */
export async function deliverToGetHolder(delivery: GetDelivery): Promise<boolean> {
  const { directory, sessionId, message } = delivery
  // One tag for every try: a holder that kept it already only acknowledges again.
  const tag = directory.mailbox.newTag()
  let reason = 'no instance holds the session\'s GET stream (the client has none open)'
  const kept = await tryUntil(DELIVERY_DEADLINE_MS, async () => {
    const holder = await delivery.holderOf().catch(() => undefined)
    const instance = holder && instanceOfStream(holder)
    if (instance === directory.instanceId) {
      if (delivery.keepHere()) return true
      reason = 'this instance was named the GET stream\'s holder, but holds no stream of it'
    }
    else if (instance) {
      const sent = await directory.sendTo(instance, { kind: 'stream', sessionId, message }, { acknowledge: true, tag })
      if (sent.outcome === 'acknowledged') return true
      reason = sent.outcome === 'heard'
        ? `instance ${instance} did not say it kept it`
        : sent.outcome === 'unreachable' ? sent.reason : `instance ${instance}, which holds the GET stream, is not listening (restarting, or gone)`
    }
    return undefined
  })
  if (!kept) console.error(`[nuxt-mcp-elicitation] A question for the GET stream of session ${delivery.sessionTag()} (its tag) was not delivered within ${DELIVERY_DEADLINE_MS / 1000} s: ${reason}. The call waiting for its answer ends with its own timeout.`)
  return kept === true
}
