import { DELIVERY_DEADLINE_MS, tryUntil } from '../../cluster/try-until'
import { logLost } from './sessions'
import type { SessionEnvelope, SharedSessionDirectory } from './sessions'

// What every instance holding a session must see is broadcast, not put in one inbox: the
// instances that hold a session are not recorded anywhere, and one that sets the session up later
// reads what matters from Redis (its record, its kept logging level). What one instance alone
// must hear goes through the mailbox (cluster/mailbox.ts).

/** Which acknowledgements of a broadcast this instance waits for, by tag: served by the link when an `applied` letter comes. */
export type Acknowledgements = Map<string, () => void>

/** How long a broadcast waits for the instances that got it to say they applied it. */
const ACKNOWLEDGE_WAIT_MS = 1000

const reasonOf = (error: unknown) => error instanceof Error ? error.message : String(error)

/**
 * Sends `envelope` to every instance, tried again while Redis cannot take it (a broadcast always
 * reaches this instance's own listener, so its count says nothing of the others): a cancellation
 * or a DELETE is not dropped while the connection comes back. Resolves `true` once sent.
 *
 * @example
 * ```ts
 * await broadcastSurely(directory, { kind: 'closed', sessionId })
 * ```
 */
export async function broadcastSurely(directory: SharedSessionDirectory, envelope: SessionEnvelope): Promise<boolean> {
  let reason = ''
  const sent = await tryUntil(DELIVERY_DEADLINE_MS, async () => {
    reason = await directory.broadcast(envelope).then(() => '', reasonOf)
    return reason === '' || undefined
  })
  if (!sent) console.error(`[nuxt-mcp-elicitation] A message between instances (${envelope.kind}) was not delivered to the other instances within ${DELIVERY_DEADLINE_MS / 1000} s: ${reason}. The call waiting for it ends with its own timeout.`)
  return sent === true
}

/**
 * Sends a notification to every instance and resolves once each of the others that got it says
 * it applied it (a letter `applied` to this instance), or after {@link ACKNOWLEDGE_WAIT_MS} (an
 * instance that died meanwhile never says so), so that the client's next request finds it
 * applied on whichever instance serves it.
 *
 * @example
 * ```ts
 * await broadcastAcknowledged(directory, acknowledgements, { kind: 'notification', sessionId, message })
 * ```
 */
export async function broadcastAcknowledged(directory: SharedSessionDirectory, acknowledgements: Acknowledgements, envelope: Extract<SessionEnvelope, { kind: 'notification' }>): Promise<void> {
  const tag = directory.mailbox.newTag()
  let acknowledged = 0
  let expected = Infinity
  let done = () => {}
  const all = new Promise<void>((resolve) => {
    done = resolve
  })
  acknowledgements.set(tag, () => {
    if (++acknowledged >= expected) done()
  })
  const timer = setTimeout(done, ACKNOWLEDGE_WAIT_MS)
  try {
    // This instance hears its own broadcast too: the others are one fewer.
    expected = await directory.broadcast({ ...envelope, from: directory.instanceId, tag }) - 1
    if (acknowledged >= expected) done()
    await all
  }
  catch (error) {
    logLost(error)
  }
  finally {
    clearTimeout(timer)
    acknowledgements.delete(tag)
  }
}
