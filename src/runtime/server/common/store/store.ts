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
  /** Forgets `key` (a claim or a record) before its expiry; nothing when there is none. */
  delete: (key: string) => Promise<void>
}

/** What a client is told when the shared state cannot be reached: which variable to look at, nothing of its value. */
export const SHARED_STATE_UNAVAILABLE = 'the shared state (NUXT_MCP_REDIS_URL) could not be reached; retry later'

/**
 * The store cannot take the write (unreachable, or full): whatever needed it must not go on
 * unguarded. The message says why and what to do, fit for a client; `detail` says what went
 * wrong in full (the store's address, the driver's error), for the server's log only.
 *
 * @example
 * ```ts
 * throw new McpStoreUnavailableError('the shared state (NUXT_MCP_REDIS_URL) could not be reached; retry later', { detail: 'connect ECONNREFUSED 10.0.0.5:6379' })
 * ```
 */
export class McpStoreUnavailableError extends Error {
  override readonly name = 'McpStoreUnavailableError'
  readonly detail: string | undefined

  constructor(message: string, options: ErrorOptions & { detail?: string } = {}) {
    super(message, options)
    this.detail = options.detail
  }
}

/** How often the same detail is logged again while an outage lasts (each request would repeat it). */
const LOG_AGAIN_AFTER_MS = 10_000
let lastLogged = { detail: '', at: 0 }

/**
 * Logs on the server what a client was not told of an unavailable store (`detail`), at most once
 * per 10 s while it stays the same.
 *
 * @example
 * ```ts
 * catch (error) { logUnavailableDetail(error); return unavailableResponse(error) }
 * ```
 */
export function logUnavailableDetail(error: unknown): void {
  const detail = error instanceof McpStoreUnavailableError ? error.detail : undefined
  if (detail === undefined) return
  const now = Date.now()
  if (detail === lastLogged.detail && now - lastLogged.at < LOG_AGAIN_AFTER_MS) return
  lastLogged = { detail, at: now }
  console.error(`[nuxt-mcp-elicitation] The shared state could not be reached: ${detail}`)
}
