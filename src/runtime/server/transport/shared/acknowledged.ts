import { logLost } from './sessions'
import type { SessionEnvelope, SharedSessionDirectory } from './sessions'

// Pub/sub delivers at most once: Redis counts a listener when it publishes, and a message can
// still die with the listener's connection (an instance killed, Redis restarting) after that. What
// a waiting call depends on is therefore sent with a tag, acknowledged by its receiver, and sent
// again under the same tag until it is; the receiver acts on a tag once.

/** How long a receiver has to acknowledge a tagged message before it is sent again. */
export const ACKNOWLEDGE_WAIT_MS = 1000
/** How many handled tags a receiver remembers, so that a message sent again is acknowledged, not acted on twice. */
const REMEMBERED_TAGS = 512

/** The acknowledgements this instance waits for, by tag; served by the link when an `applied` envelope comes. */
export type Acknowledgements = Map<string, () => void>

/** A fresh tag for one message of this instance, kept across its tries. */
export function newTag(directory: SharedSessionDirectory): string {
  return `${directory.instanceId}.${crypto.randomUUID()}`
}

/**
 * Publishes the tagged `envelope` to instance `instanceId` and resolves with whether it said it
 * got it within {@link ACKNOWLEDGE_WAIT_MS}; `listeners` is how many listeners Redis counted (0:
 * the instance is not listening, and nothing is waited for).
 *
 * @example
 * ```ts
 * const { acknowledged } = await sendAcknowledged(directory, acknowledgements, '4w6t6w4q', { kind: 'response', sessionId, message, from, tag }, tag)
 * ```
 */
export async function sendAcknowledged(directory: SharedSessionDirectory, acknowledgements: Acknowledgements, instanceId: string, envelope: SessionEnvelope, tag: string): Promise<{ acknowledged: boolean, listeners: number }> {
  let settle = (_acknowledged: boolean) => {}
  const heard = new Promise<boolean>((resolve) => {
    settle = resolve
  })
  acknowledgements.set(tag, () => settle(true))
  try {
    const listeners = await directory.sendTo(instanceId, envelope).catch(() => 0)
    if (listeners === 0) return { acknowledged: false, listeners }
    const timer = setTimeout(() => settle(false), ACKNOWLEDGE_WAIT_MS)
    const acknowledged = await heard
    clearTimeout(timer)
    return { acknowledged, listeners }
  }
  finally {
    acknowledgements.delete(tag)
  }
}

/**
 * The receiver's side: runs `handle` for `tag` unless it ran for it lately, and says whether the
 * message is taken (`handle` returned `true`, now or before), so the sender can stop. `handled`
 * holds the tags taken lately, oldest first.
 *
 * @example
 * ```ts
 * if (takeOnce(handled, envelope.tag, () => deliver(envelope))) acknowledge(envelope)
 * ```
 */
export function takeOnce(handled: Set<string>, tag: string, handle: () => boolean): boolean {
  if (handled.has(tag)) return true
  if (!handle()) return false
  handled.add(tag)
  if (handled.size > REMEMBERED_TAGS) handled.delete(handled.values().next().value!)
  return true
}

/**
 * Sends a notification to every instance and resolves once each of the others that got it says
 * it applied it (or after {@link ACKNOWLEDGE_WAIT_MS}: an instance that died meanwhile never says
 * so), so that the client's next request finds it applied on whichever instance serves it.
 *
 * @example
 * ```ts
 * await broadcastAcknowledged(directory, acknowledgements, { kind: 'notification', sessionId, message })
 * ```
 */
export async function broadcastAcknowledged(directory: SharedSessionDirectory, acknowledgements: Acknowledgements, envelope: Extract<SessionEnvelope, { kind: 'notification' }>): Promise<void> {
  const tag = newTag(directory)
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
