import type { McpSharedState } from './shared-state'

/** How long an instance counts as alive after its last heartbeat. */
export const ALIVE_TTL_MS = 6000
/** How often an instance beats: three beats fit in {@link ALIVE_TTL_MS}, so one lost write is no death. */
export const BEAT_EVERY_MS = 2000

function aliveKey(instanceId: string): string {
  return `alive:${instanceId}`
}

/**
 * Starts this instance's heartbeat in the shared state (a key that lives {@link ALIVE_TTL_MS},
 * written every {@link BEAT_EVERY_MS}); returns what stops it. `lost` hears a write that failed.
 * Whether another instance is gone is read from it, never from a message alone: a subscriber
 * coming back after a Redis restart hears nothing for a moment, yet its instance is alive.
 *
 * @example
 * ```ts
 * const stop = beat(shared, logLost)
 * ```
 */
export function beat(shared: McpSharedState, lost: (error: unknown) => void): () => void {
  const once = () => void shared.put(aliveKey(shared.instanceId), '1', ALIVE_TTL_MS).catch(lost)
  once()
  const timer = setInterval(once, BEAT_EVERY_MS)
  timer.unref?.()
  return () => clearInterval(timer)
}

/**
 * Whether `instanceId` has beaten lately: a killed instance stops counting within {@link ALIVE_TTL_MS}.
 *
 * @example
 * ```ts
 * if (!await isAlive(shared, runner)) takeOver()
 * ```
 */
export async function isAlive(shared: McpSharedState, instanceId: string): Promise<boolean> {
  return await shared.get(aliveKey(instanceId)) !== undefined
}
