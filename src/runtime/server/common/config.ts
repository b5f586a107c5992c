
/** The module's options as they reach the server (nuxt.config `mcp:` merged with `NUXT_MCP_*`). */
export interface McpServerConfig {
  name: string
  version: string
  /** Sent to clients at initialize / discover; empty means none. */
  instructions: string
  /**
   * The address clients use (`NUXT_MCP_PUBLIC_URL`): its host passes the DNS-rebinding check.
   * Empty when unset.
   */
  publicUrl: string
  /** Extra Host names accepted besides loopback names and IP literals; `'*'` accepts any (comma-separated string from env is fine). */
  allowedHosts: string[] | string
  /** Origins accepted on browser requests besides the request's own host. */
  allowedOrigins: string[] | string
  /** Largest accepted request body, in bytes. */
  maxBodySize: number
  sessions: {
    /** A legacy session idle this long (and with no request in flight) is closed. 0 disables. */
    idleTimeoutMs: number
    /** Most legacy sessions at once; at it the least recently used idle one is closed (503 when none is idle). */
    max: number
    /** Most legacy sessions of one principal (or, anonymous, one client address); at it that principal's least recently used idle one is closed. */
    maxPerPrincipal: number
    /**
     * Most characters (of their JSON) this process keeps of the events of every legacy session's
     * resumable streams, together (each session keeps at most 4 MiB of its own): over it, finished
     * streams are forgotten first, then running streams drop their oldest events.
     */
    maxResumableBytes: number
  }
  /** Proxies whose `X-Forwarded-For` is believed (addresses or IPv4 CIDR ranges; comma-separated string from env is fine). */
  trustedProxies: string[] | string
  elicitation: {
    /** How long a legacy elicitation waits for the person, unless the call passes `timeout`. */
    timeoutMs: number
    /** How long a modern `requestState` stays valid. */
    stateTtlSeconds: number
    /** How many times in total a client is asked one question while its answers are invalid (both eras). */
    maxAttempts: number
    /** How often a waiting legacy elicitation sends progress to a client that gave a progress token. */
    progressIntervalMs: number
    /** Accept `http:` URL-mode targets on hosts other than localhost. */
    allowInsecureUrls: boolean
    /**
     * The app's own page, for a form or URL question the client cannot show (most hosts today):
     * the call ends with a link for the person, and goes on when it is made again after they
     * answered. Links point at `publicUrl`: without it there is no page.
     */
    page: {
      /** Offer the page at all. */
      enabled: boolean
      /** Most questions one caller (principal, or legacy session) has waiting on the page at once. */
      maxOpenPerCaller: number
      /**
       * Let whoever holds the link answer a consent question (`confirm()`, `form({ consent })`)
       * when no principal is known. Off: such a question needs a person the `mcp:auth` hook
       * recognises on the page, or the client's own dialog.
       */
      consentWithLinkOnly: boolean
      /**
       * A legacy client's decline or cancel that comes back within 1 s (faster than a person reads,
       * so most likely the client's own doing) sends the question to the page instead of ending
       * the call with it. Off: the handler gets the decline, and `mcp:question` says `tooFast`.
       */
      afterFastDecline: boolean
    }
  }
  /** Tasks: tools that run on after their call returned, and may wait for a person as long as their ttl (`execution.taskSupport`). */
  tasks: {
    /** How long a task is kept from its creation (2025-11-25 clients may ask for less, down to `minTtlMs`, or more, up to `maxTtlMs`). */
    ttlMs: number
    /** The longest a 2025-11-25 client may ask a task to be kept. */
    maxTtlMs: number
    /**
     * The shortest a 2025-11-25 client may ask a task to be kept: a shorter `ttl` (the MCP
     * Inspector asks 60 s) is raised to it, so a question the task asks gets a person's time.
     */
    minTtlMs: number
    /** The longest an anonymous caller's task is kept (the default `ttlMs` included): a longer `ttl` is cut to it. */
    maxAnonymousTtlMs: number
    /** How often clients are told to poll a task. */
    pollIntervalMs: number
    /** Most running tasks of one principal (or, anonymous, one client address); an ended task no longer counts. */
    maxPerPrincipal: number
    /** Most running tasks of the endpoint (with Redis, across instances); ended ones never refuse one: at most this many are kept, the oldest forgotten first. */
    max: number
    /** Largest tool result (JSON bytes) a task keeps; a larger one ends the task `failed`. */
    maxResultBytes: number
    /** Largest arguments (JSON bytes, as sent) a task keeps; a call with larger ones is not run as a task. */
    maxArgumentBytes: number
    /** Largest client capabilities (JSON bytes) a task keeps; a call declaring larger ones is not run as a task. */
    maxCapabilitiesBytes: number
    /** Largest answer (JSON bytes) a task keeps per question; a larger one is refused. */
    maxAnswerBytes: number
    /**
     * How long a `taskSupport: 'optional'` tool called by a client without tasks runs inline
     * before the call answers "it goes on" and the run goes on as a task (a job, checked on by
     * calling the tool again with the same arguments). `0`: inline all the way.
     */
    detachAfterMs: number
    /**
     * Run tasks in the background of this process. Off on Workers (a request cannot outlive its
     * response): `optional` tools then run inline and `required` ones are refused.
     */
    background: boolean
  }
  /**
   * Serve legacy sessions (≤ 2025-11-25, `initialize`). They need one long-lived process: off by
   * default on Workers, where `initialize` gets a JSON-RPC error naming 2026-07-28.
   */
  legacy: boolean
  /** Advertise `listChanged` (also on by itself when a definition has a guard). */
  listChanged: boolean
  /**
   * The tools the endpoint serves, in `X-MCP-Tools` syntax (names, `group:<name>`, `tag:<name>`;
   * an array, or one comma-separated string as from `NUXT_MCP_TOOLS`); `'*'`: every tool.
   */
  tools: string[] | string
  /** Where tools and resources with a `cache` keep results. */
  cache: {
    /**
     * A Nitro storage mount (`nitro.storage`, `useStorage('<mount>')`): Redis, a Cloudflare KV
     * binding, the file system. Empty: Redis with `NUXT_MCP_REDIS_URL`, else this process.
     */
    storage: string
    /** A result larger than this (its JSON, in bytes) is not kept, in any store. */
    maxEntryBytes: number
    /** What one endpoint's cached results take at most, in this process or in Redis (not counted on a Nitro storage mount). */
    maxBytes: number
    /** What one caller's cached results take at most of `maxBytes`, so one caller cannot fill it for everyone. */
    maxBytesPerCaller: number
  }
  /** What the `mcp:call` / `mcp:question` hooks carry. */
  observe: {
    /**
     * Put what the person answered in `mcp:question` events (`content`, `issues`, a URL-mode
     * `url`). Off unless opted in; on in `nuxi dev` with DevTools on (the developer's own test data).
     */
    answers: boolean
  }
  /** OAuth resource server (MCP authorization); off while `issuers` is empty. */
  auth: {
    /** Authorization servers whose access tokens are accepted (issuer identifiers). */
    issuers: string[] | string
    /** This endpoint's resource identifier; default: the public URL plus the route. */
    resource: string
    /** `aud` values accepted; default: the resource identifier. */
    audiences: string[] | string
    /** Scopes every request's token must carry. */
    scopes: string[] | string
    /** Seconds of clock skew accepted on `exp`/`nbf`. */
    clockToleranceSeconds: number
    /** Seconds an issuer's keys are used before they are fetched again (a key it dropped stops verifying then). */
    jwksMaxAgeSeconds: number
    /** Opaque tokens: checked at the issuer's introspection endpoint as this client; off while `clientId` is empty. */
    introspection: { clientId: string, clientSecret: string, endpoint: string, issuer: string }
  }
  /** HMAC key of modern `requestState`; every instance behind one endpoint needs the same. */
  stateSecret: string
  /**
   * Redis shared by every instance (`NUXT_MCP_REDIS_URL`): legacy sessions, answers crossing
   * instances, URL completions and the replay guard. Empty: all state stays in this process.
   */
  redisUrl: string
  /** Put before every Redis key and channel (then the endpoint's route). */
  redisPrefix: string
  /** The app's other endpoints (`server/mcp/<key>/`), by key: what each sets over the settings above. */
  endpoints?: Record<string, McpEndpointConfig>
}

/** What one more endpoint sets over the app's settings (`mcp.endpoints.<key>`). */
export interface McpEndpointConfig {
  route: string
  name: string
  version: string
  instructions: string
  listChanged: boolean
  /** Its own subset of its tools (never the default endpoint's, which names other tools). */
  tools: string[] | string
  /** Laid over the app's `auth` key by key, except `resource` and `audiences`, which are never inherited. */
  auth: Partial<Omit<McpServerConfig['auth'], 'introspection'>>
}

/**
 * The settings one endpoint runs with: the app's, with what the endpoint `key` sets laid over
 * them (`''`, the default endpoint, sets nothing).
 *
 * @example
 * ```ts
 * const admin = configOfEndpoint(useRuntimeConfig().mcp, 'admin')
 * ```
 */
export function configOfEndpoint(config: McpServerConfig, key: string): McpServerConfig {
  const checked = withCheckedLimits(config)
  const own = key ? config.endpoints?.[key] : undefined
  if (!own) return checked
  const { route: _route, auth, ...rest } = own
  // Its resource identifier and audiences are its own: a token issued for one endpoint must not
  // open another.
  return { ...checked, ...rest, auth: { ...config.auth, resource: '', audiences: [], ...auth } }
}

/** Turns `a,b` (from an env variable) or an array into a clean list. */
export function toList(value: string[] | string | undefined): string[] {
  const items = Array.isArray(value) ? value : (value ?? '').split(',')
  return items.map(item => item.trim()).filter(Boolean)
}

/**
 * The result cache's byte bounds unless `mcp.cache` sets them: 1 MiB an entry, 64 MiB an
 * endpoint, 8 MiB a caller (so eight callers, at least, share the budget).
 *
 * @example
 * ```ts
 * const cache = { storage: '', ...CACHE_BYTE_DEFAULTS, ...options.cache }
 * ```
 */
export const CACHE_BYTE_DEFAULTS = { maxEntryBytes: 1024 * 1024, maxBytes: 64 * 1024 * 1024, maxBytesPerCaller: 8 * 1024 * 1024 } as const

/**
 * The tasks' count and size bounds unless `mcp.tasks` sets them: 10,000 tasks an endpoint, an
 * hour for an anonymous caller's, ten minutes at least for one a client asks a `ttl` for, 256 KiB
 * of arguments, 64 KiB of capabilities, 1 MiB an answer, and 30 s inline before a call of a client
 * without tasks goes on as a job (half the 60 s request timeout of the v1 and v2 SDK clients, and of
 * nginx's and AWS ALB's idle defaults).
 *
 * @example
 * ```ts
 * const tasks = { ttlMs: 60 * 60_000, ...TASK_LIMIT_DEFAULTS, ...options.tasks }
 * ```
 */
export const TASK_LIMIT_DEFAULTS = { max: 10_000, maxAnonymousTtlMs: 60 * 60_000, minTtlMs: 10 * 60_000, maxArgumentBytes: 256 * 1024, maxCapabilitiesBytes: 64 * 1024, maxAnswerBytes: 1024 * 1024, detachAfterMs: 30_000 } as const

/**
 * The default of `mcp.sessions.maxResumableBytes` (64 MiB): what one process keeps of all its
 * sessions' resumable streams.
 *
 * @example
 * ```ts
 * new JournalBudget(DEFAULT_RESUMABLE_BYTES, 'oldest')
 * ```
 */
export const DEFAULT_RESUMABLE_BYTES = 64 * 1024 * 1024

/**
 * The env variable that sets `mcp.<option>` at run time (Nuxt's runtime config naming).
 *
 * @example
 * ```ts
 * envVariableOf('cache.maxBytesPerCaller') // 'NUXT_MCP_CACHE_MAX_BYTES_PER_CALLER'
 * ```
 */
export function envVariableOf(option: string): string {
  return `NUXT_MCP_${option.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/\./g, '_').toUpperCase()}`
}

/** The bad values already said, by option and value: each is said once, however often config is read. */
const saidBadValues = new Set<string>()

/**
 * `mcp.<option>` as a number of at least 0, or `fallback`. A value that is none (an env variable
 * set to a word, a negative number) is said once in the server log, naming the option, its env
 * variable and the value: left as it is, a comparison with NaN would silently lift the bound, and
 * Redis's `tonumber` would fail the script that enforces it.
 *
 * @example
 * ```ts
 * nonNegativeNumberOf(65536, 'cache.maxBytes', 67108864) // 65536
 * nonNegativeNumberOf('lots', 'cache.maxBytes', 67108864) // 67108864, and the log names NUXT_MCP_CACHE_MAX_BYTES
 * ```
 */
export function nonNegativeNumberOf(value: unknown, option: string, fallback: number): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value
  // NaN and Infinity have no JSON of their own (`null`): said as they are.
  const shown = typeof value === 'number' || value === undefined ? String(value) : JSON.stringify(value)
  const said = `${option}=${shown}`
  if (!saidBadValues.has(said)) {
    saidBadValues.add(said)
    console.warn(`[nuxt-mcp-elicitation] mcp.${option} is ${shown}, not a number of at least 0: using the default, ${fallback}. Set it (or ${envVariableOf(option)}) to a number, e.g. ${fallback}.`)
  }
  return fallback
}

/** Each of `defaults`' keys read from `section` by {@link nonNegativeNumberOf}, under `mcp.<name>.`. */
function checkedNumbers<K extends string>(section: Readonly<Record<string, unknown>>, name: string, defaults: Readonly<Record<K, number>>): Record<K, number> {
  const checked: Partial<Record<K, number>> = {}
  for (const key of Object.keys(defaults) as K[]) checked[key] = nonNegativeNumberOf(section[key], `${name}.${key}`, defaults[key])
  return checked as Record<K, number>
}

/**
 * `config` with its byte and count bounds checked ({@link nonNegativeNumberOf}): the result
 * cache's, the tasks' and `sessions.maxResumableBytes`. A bad one is said once and its default
 * used, so that an option never silently does nothing.
 *
 * @example
 * ```ts
 * withCheckedLimits({ ...config, cache: { ...config.cache, maxBytes: Number.NaN } }).cache.maxBytes // 67108864
 * ```
 */
export function withCheckedLimits(config: McpServerConfig): McpServerConfig {
  return {
    ...config,
    sessions: { ...config.sessions, maxResumableBytes: nonNegativeNumberOf(config.sessions.maxResumableBytes, 'sessions.maxResumableBytes', DEFAULT_RESUMABLE_BYTES) },
    tasks: { ...config.tasks, ...checkedNumbers(config.tasks, 'tasks', TASK_LIMIT_DEFAULTS) },
    cache: { ...config.cache, ...checkedNumbers(config.cache, 'cache', CACHE_BYTE_DEFAULTS) },
  }
}

let generatedSecret: string | undefined

/** 32 random bytes, base64url (Web Crypto: no Node built-in, for every runtime). */
function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** The shortest state secret accepted in production: every client holds a signed state to guess it offline. */
export const MIN_STATE_SECRET_BYTES = 32

/**
 * Refuses (production) or warns about (development) a configured state secret under
 * {@link MIN_STATE_SECRET_BYTES} bytes; an unset one is left alone.
 *
 * @example
 * ```ts
 * checkStateSecret(useRuntimeConfig().mcp, !import.meta.dev)
 * ```
 */
export function checkStateSecret(config: McpServerConfig, production: boolean): void {
  if (!config.stateSecret) return
  const bytes = new TextEncoder().encode(config.stateSecret).length
  if (bytes >= MIN_STATE_SECRET_BYTES) return
  const message = `NUXT_MCP_STATE_SECRET is ${bytes} bytes long; at least ${MIN_STATE_SECRET_BYTES} are needed, since every client holds a state signed with it to guess it from offline. Use a long random value, e.g. \`openssl rand -base64 48\`.`
  if (production) throw new Error(`[nuxt-mcp-elicitation] ${message}`)
  console.warn(`[nuxt-mcp-elicitation] ${message}`)
}

/**
 * The state secret to use: the configured one, or a per-process random one with a warning
 * (flows then only complete while every round reaches this same process). A configured secret
 * under {@link MIN_STATE_SECRET_BYTES} bytes is refused in production (thrown) and warned about
 * in development.
 *
 * @example
 * ```ts
 * const secret = resolveStateSecret(useRuntimeConfig().mcp, !import.meta.dev)
 * ```
 */
export function resolveStateSecret(config: McpServerConfig, production: boolean): string {
  if (config.stateSecret) {
    checkStateSecret(config, production)
    return config.stateSecret
  }
  if (!generatedSecret) {
    generatedSecret = randomSecret()
    // In dev a generated secret is the expected setup, so it is a notice, not a warning.
    if (production) console.warn('[nuxt-mcp-elicitation] No NUXT_MCP_STATE_SECRET is set: a random one was generated for this process. Modern (2026-07-28) elicitation flows will be REJECTED when a retry reaches another instance or a restarted server. Set NUXT_MCP_STATE_SECRET to one long random value shared by all instances.')
    else console.info('[nuxt-mcp-elicitation] No NUXT_MCP_STATE_SECRET set: this dev server signs requestState with a generated secret (set one to keep modern flows across restarts).')
  }
  return generatedSecret
}

/**
 * Where clients reach this app, from configuration only (never a request's `Host`): the origin of
 * `publicUrl`, its path (a proxy's prefix), then Nuxt's `app.baseURL`, with no trailing slash;
 * `undefined` without `publicUrl`. What OAuth's resource and the question page's links stand on.
 *
 * @example
 * ```ts
 * publicBaseOf('https://host.example/app1/', '/shop/') // 'https://host.example/app1/shop'
 * ```
 */
export function publicBaseOf(publicUrl: string, baseURL = '/'): string | undefined {
  if (!publicUrl) return undefined
  const url = new URL(publicUrl)
  const trim = (path: string) => path.replace(/\/+$/, '')
  const base = trim(baseURL)
  return `${url.origin}${trim(url.pathname)}${base && !base.startsWith('/') ? `/${base}` : base}`
}
