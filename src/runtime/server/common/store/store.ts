/**
 * What the module keeps beyond one request: small string records with an expiry, and atomic
 * claims. The in-process store is the default; a store shared by every instance (Redis) gives the
 * same guarantees across instances.
 */
export interface McpStateStore {
  /**
   * Takes `key` for `ttlMs` when nobody holds it. Atomic: of any number of concurrent callers,
   * exactly one gets `true`.
   */
  claim: (key: string, ttlMs: number) => Promise<boolean>
  /** Keeps `value` under `key` until `ttlMs` from now. */
  put: (key: string, value: string, ttlMs: number) => Promise<void>
  /** The value under `key`, or `undefined` when there is none or it expired. */
  get: (key: string) => Promise<string | undefined>
}

/**
 * The store cannot take the write (unreachable, or full): whatever needed it must not go on
 * unguarded. The message says why and what to do.
 */
export class McpStoreUnavailableError extends Error {
  override readonly name = 'McpStoreUnavailableError'
}
