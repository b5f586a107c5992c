import { McpStoreUnavailableError, logUnavailableDetail } from '../common/store/store'
import type { McpStateStore } from '../common/store/store'
import { McpElicitationError } from './error'

/** How long a replay waits for the step that a concurrent copy of its round is running. */
const WAIT_FOR_STEP_MS = 30_000
const POLL_MS = 50

type Recorded = { v?: unknown } | { e: string }

function parseRecord(text: string): Recorded {
  const parsed: unknown = JSON.parse(text)
  if (typeof parsed === 'object' && parsed !== null && 'e' in parsed && typeof parsed.e === 'string') return { e: parsed.e }
  return typeof parsed === 'object' && parsed !== null && 'v' in parsed ? { v: parsed.v } : {}
}

function replay<T>(record: Recorded): T {
  if ('e' in record) throw new Error(record.e)
  // Recorded from this same step's JSON result (checked serialisable when it ran).
  return record.v as T
}

/**
 * Runs a `once()` step of a modern flow at most once per flow (`nonce`), however often the round
 * that reaches it is sent: the step is claimed before it runs, and its outcome (value or error
 * message) is recorded until the state that allows replaying the round expires (`ttlMs`). A
 * replay gets the recorded outcome; a concurrent replay waits for it.
 *
 * @example
 * ```ts
 * const receipt = await runGuardedStep(store, state.nonce, 'charge', state.exp - Date.now(), charge)
 * ```
 */
export async function runGuardedStep<T>(store: McpStateStore, nonce: string, key: string, ttlMs: number, step: () => T | Promise<T>): Promise<T> {
  try {
    return await guarded(store, nonce, key, ttlMs, step)
  }
  catch (error) {
    // Fail closed: without the store the step cannot be guarded, so it does not run.
    if (!(error instanceof McpStoreUnavailableError)) throw error
    logUnavailableDetail(error)
    throw new McpElicitationError('unavailable', `once("${key}") did not run: ${error.message}`, { cause: error })
  }
}

async function guarded<T>(store: McpStateStore, nonce: string, key: string, ttlMs: number, step: () => T | Promise<T>): Promise<T> {
  const claimKey = `once:${nonce}:${key}`
  const resultKey = `${claimKey}:result`
  if (await store.claim(claimKey, ttlMs)) {
    let value: T
    try {
      value = await step()
    }
    catch (error) {
      await store.put(resultKey, JSON.stringify({ e: error instanceof Error ? error.message : String(error) }), ttlMs)
      throw error
    }
    await store.put(resultKey, JSON.stringify({ v: value }), ttlMs)
    return value
  }
  const deadline = Date.now() + WAIT_FOR_STEP_MS
  for (;;) {
    const recorded = await store.get(resultKey)
    if (recorded !== undefined) return replay<T>(parseRecord(recorded))
    if (Date.now() > deadline) {
      throw new McpElicitationError('in-progress', `once("${key}") is still running for another copy of this request (the client sent the same round twice). Retry the request later: the step will not run again.`)
    }
    await new Promise(resolve => setTimeout(resolve, POLL_MS))
  }
}
