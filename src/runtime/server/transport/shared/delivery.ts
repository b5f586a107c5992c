import { DELIVERY_DEADLINE_MS, tryUntil } from '../../cluster/try-until'
import type { SessionEnvelope, SharedSessionDirectory } from './sessions'

/** Says that a message a call was waiting for could not be delivered, and why. */
function logUndelivered(envelope: SessionEnvelope, to: string, reason: string): void {
  console.error(`[nuxt-mcp-elicitation] A message between instances (${envelope.kind}) was not delivered to ${to} within ${DELIVERY_DEADLINE_MS / 1000} s: ${reason}. The call waiting for it ends with its own timeout.`)
}

const reasonOf = (error: unknown) => error instanceof Error ? error.message : String(error)

/**
 * Sends `envelope` to the instance `instanceId` until that instance has it: Redis says how many
 * listeners a PUBLISH reached, and none means the instance is not subscribed (its connection is
 * coming back) or gone. So an answer, a completion or a resume request is not dropped with a log
 * line while the connections reset: it is tried again every 200 ms, for 10 s, then logged as not
 * delivered, naming the instance and the cause. Resolves `true` once delivered.
 *
 * @example
 * ```ts
 * void deliverTo(directory, '4w6t6w4q', { kind: 'response', sessionId, message })
 * ```
 */
export async function deliverTo(directory: SharedSessionDirectory, instanceId: string, envelope: SessionEnvelope): Promise<boolean> {
  let reason = ''
  const delivered = await tryUntil(DELIVERY_DEADLINE_MS, async () => {
    reason = await directory.sendTo(instanceId, envelope).then(
      listeners => listeners > 0 ? '' : `instance ${instanceId} is not listening (restarting, or gone)`,
      reasonOf,
    )
    return reason === '' || undefined
  })
  if (!delivered) logUndelivered(envelope, `instance ${instanceId}`, reason)
  return delivered === true
}

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
  if (!sent) logUndelivered(envelope, 'the other instances', reason)
  return sent === true
}
