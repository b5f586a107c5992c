import type { Redis, RedisOptions } from 'ioredis'
import { McpStoreUnavailableError, SHARED_STATE_UNAVAILABLE } from '../common/store/store'
import { byteCountKey } from './shared-state'
import type { McpSharedState } from './shared-state'
import { BOUNDED_APPEND, CAPPED_HASH_SET, CLAIM, KEEP_WITHIN, RANK_WITHIN } from './redis-scripts'
import { redactRedisUrl } from './redact-redis-url'

export interface RedisStateOptions {
  /** `redis://…` or `rediss://…` (`NUXT_MCP_REDIS_URL`). */
  url: string
  /** Put before every key and channel (`mcp.redisPrefix`), then the endpoint's route. */
  prefix: string
  route: string
}

/** How long a command may take before the request that needed it gets a 503: never a hang. */
const COMMAND_TIMEOUT_MS = 2000
/** How long the state waits for its first connection before it is used anyway. */
const FIRST_CONNECTION_WAIT_MS = 2000

/** Resolves once `client` is ready, has failed once, or `ms` have passed, whichever comes first. */
function firstConnection(client: Redis, ms: number): Promise<void> {
  if (client.status === 'ready') return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      client.off('ready', done)
      client.off('error', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    client.once('ready', done)
    client.once('error', done)
  })
}

const INSTALL_HINT = 'NUXT_MCP_REDIS_URL is set, but the Redis client package ioredis could not be loaded: install it next to the app (npm install ioredis), or unset NUXT_MCP_REDIS_URL to keep the state in this process.'

function randomTag(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(6)), byte => byte.toString(36).padStart(2, '0')).join('')
}


/** Clients learn which variable to look at; the address and the driver's error go to the log only. */
function unavailable(url: string, error: unknown): McpStoreUnavailableError {
  const reason = error instanceof Error ? error.message : String(error)
  return new McpStoreUnavailableError(SHARED_STATE_UNAVAILABLE, { cause: error, detail: `Redis at ${redactRedisUrl(url)}: ${reason}` })
}

async function loadIoredis(): Promise<typeof Redis> {
  let loaded: typeof import('ioredis')
  try {
    loaded = await import('ioredis')
  }
  catch (error) {
    throw new Error(`[nuxt-mcp-elicitation] ${INSTALL_HINT}`, { cause: error })
  }
  return loaded.Redis ?? loaded.default
}

/**
 * The subscriber connection's options, from the command connection's. It queues while offline
 * and never gives up a SUBSCRIBE: a subscription made while Redis is away takes effect once it is
 * back (and ioredis renews them after every reconnect).
 *
 * It also skips ioredis' ready check. ioredis writes a SUBSCRIBE made while its connection is
 * still in its handshake (Redis flags SUBSCRIBE as allowed while loading) straight to the socket;
 * the reply puts the connection in subscriber mode, and the ready check's INFO that follows is
 * then refused ("Connection in subscriber mode, only subscriber commands may be used"): the
 * connection resets, the SUBSCRIBE is rejected and the channel stays unsubscribed, so every
 * message published to this instance is lost. A subscription made in the few milliseconds after
 * a connect (an endpoint made at startup, anything after Redis restarts) hit it. A subscriber
 * sends nothing but SUBSCRIBE, which Redis serves while loading, so it has nothing to wait for.
 *
 * @example
 * ```ts
 * const subscriber = new Redis(url, subscriberOptions({ commandTimeout: 2000 }))
 * ```
 */
export function subscriberOptions(connection: RedisOptions): RedisOptions {
  // autoResubscribe off: the subscriptions come back through `connectRedisState`'s own handler.
  return { ...connection, enableOfflineQueue: true, commandTimeout: undefined, maxRetriesPerRequest: null, enableReadyCheck: false, autoResubscribe: false }
}

/**
 * Keeps `client`'s offline queue for the first {@link COMMAND_TIMEOUT_MS} of an outage only:
 * commands made then wait for the connection (a short restart costs a delay, not an error);
 * after that they fail at once, so a long outage does not pile up commands (each request's, for
 * as long as Redis is away) in memory, to be sent all at once when it is back.
 *
 * @example
 * ```ts
 * queueOnlyBriefly(new Redis(url, { enableOfflineQueue: true, commandTimeout: 2000 }))
 * ```
 */
export function queueOnlyBriefly(client: Redis): void {
  let outage: ReturnType<typeof setTimeout> | undefined
  client.on('close', () => {
    outage ??= setTimeout(() => { client.options.enableOfflineQueue = false }, COMMAND_TIMEOUT_MS)
    outage.unref?.()
  })
  client.on('ready', () => {
    clearTimeout(outage)
    outage = undefined
    client.options.enableOfflineQueue = true
  })
}

/**
 * Connects the shared state to Redis with ioredis (loaded only here, so an app without
 * `NUXT_MCP_REDIS_URL` never loads it): one connection for commands, one for subscriptions.
 * A command made while the connection is down waits for it to come back, 2 s at most, then fails
 * as `McpStoreUnavailableError`: a Redis restart or failover shorter than that costs a delay, not
 * an error (the chaos run, `npm run chaos`, restarts Redis under load), and a longer outage is
 * still a 503 within 2 s, never a hang; past its first 2 s, commands fail at once
 * ({@link queueOnlyBriefly}). Both connections reconnect by themselves, and the
 * subscriptions come back with them.
 *
 * @example
 * ```ts
 * const shared = await connectRedisState({ url: 'redis://127.0.0.1:6379', prefix: 'nuxt-mcp:', route: '/mcp' })
 * await shared.claim('once:flow:charge', 60_000)
 * ```
 */
export async function connectRedisState(options: RedisStateOptions): Promise<McpSharedState> {
  const RedisClient = await loadIoredis()
  const connection: RedisOptions = {
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 5000,
    // Queued while disconnected, and bounded by the command timeout alone (its timer starts when
    // the command is made, queued or not); a retry count would fail them after the first
    // reconnect attempt, long before Redis is back. Like any command that times out on the way,
    // one that timed out in the queue may still run once the connection is back.
    enableOfflineQueue: true,
    maxRetriesPerRequest: null,
    retryStrategy: times => Math.min(times * 200, 2000),
  }
  const commands = new RedisClient(options.url, connection)
  queueOnlyBriefly(commands)
  const subscriber = new RedisClient(options.url, subscriberOptions(connection))
  let lastError = ''
  for (const client of [commands, subscriber]) {
    client.on('error', (error: Error) => {
      // ioredis retries on its own; say so once per distinct failure, not once per retry.
      if (error.message === lastError) return
      lastError = error.message
      console.error(`[nuxt-mcp-elicitation] Redis at ${redactRedisUrl(options.url)}: ${error.message} (reconnecting)`)
    })
    client.on('ready', () => { lastError = '' })
  }
  // The first requests wait for the connection (commands made before it would fail at once), but
  // not for long: with Redis away they get their 503 after this.
  await firstConnection(commands, FIRST_CONNECTION_WAIT_MS)
  const base = `${options.prefix}${options.route}:`
  const listeners = new Map<string, (message: string) => void>()
  const resubscribed = new Map<string, () => void>()
  subscriber.on('message', (channel: string, message: string) => listeners.get(channel)?.(message))
  // The subscriptions come back with the connection. ioredis's own resubscribe leaves its promise
  // unhandled when the connection closes again at once (a Redis stopped right after it came
  // back); here that failure is caught, the 'error' listener reports the outage, and the next
  // 'ready' subscribes again. A SUBSCRIBE that Redis itself refuses on a live connection (an ACL
  // without it) would leave this instance deaf for as long as that connection lasts: it is said
  // once, and the connection is made again until Redis accepts.
  let refusal = ''
  subscriber.on('ready', () => {
    if (listeners.size === 0) return
    subscriber.subscribe(...listeners.keys()).then(() => {
      refusal = ''
      for (const subscribed of resubscribed.values()) subscribed()
    }, (error: unknown) => {
      if (subscriber.status !== 'ready') return
      const reason = error instanceof Error ? error.message : String(error)
      if (reason !== refusal) console.error(`[nuxt-mcp-elicitation] Redis at ${redactRedisUrl(options.url)} refused this instance's SUBSCRIBE for ${options.route} (${reason}): messages from other instances do not reach it until Redis accepts; connecting again until then.`)
      refusal = reason
      subscriber.disconnect(true)
    })
  })

  async function run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command()
    }
    catch (error) {
      throw unavailable(options.url, error)
    }
  }

  const instanceId = randomTag()
  let claims = 0
  return {
    instanceId,
    claim: (key, ttlMs) => run(async () => Number(await commands.eval(CLAIM, 1, base + key, `${instanceId}.${++claims}`, Math.max(1, Math.ceil(ttlMs)))) === 1),
    put: (key, value, ttlMs) => run(async () => { await commands.set(base + key, value, 'PX', Math.max(1, Math.ceil(ttlMs))) }),
    get: key => run(async () => await commands.get(base + key) ?? undefined),
    // The budget's own records sit beside the entries, under the endpoint's prefix: one budget per endpoint.
    keepWithin: (key, value, ttlMs, budget) => run(async () => Number(await commands.eval(KEEP_WITHIN, 4, base + key, `${base}cache-budget:expiry`, `${base}cache-budget:entries`, `${base}cache-budget:bytes`, key, value, Math.max(1, Math.ceil(ttlMs)), budget.owner, budget.bytes, budget.maxBytes, budget.maxOwnerBytes)) === 1),
    take: key => run(async () => await commands.getdel(base + key) ?? undefined),
    delete: key => run(async () => { await commands.del(base + key) }),
    touch: (key, ttlMs) => run(async () => await commands.pexpire(base + key, Math.max(1, Math.ceil(ttlMs))) === 1),
    rank: (key, member, score, ttlMs) => run(async () => { await commands.multi().zadd(base + key, score, member).pexpire(base + key, Math.max(1, Math.ceil(ttlMs))).exec() }),
    rankWithin: (limits, member, score, ttlMs, minScore) => run(async () => Number(await commands.eval(RANK_WITHIN, limits.length, ...limits.map(limit => base + limit.key), member, score, Math.max(1, Math.ceil(ttlMs)), minScore, ...limits.map(limit => limit.max)))),
    unrank: (key, member) => run(async () => { await commands.zrem(base + key, member) }),
    ranked: (key, minScore) => run(async () => {
      const [, members] = await commands.multi().zremrangebyscore(base + key, '-inf', `(${minScore}`).zrange(base + key, 0, -1).exec() ?? []
      const list = members?.[1]
      return Array.isArray(list) ? list.filter((member): member is string => typeof member === 'string') : []
    }),
    append: (key, values, ttlMs, keepLast, keepBytes = Number.MAX_SAFE_INTEGER) => run(async () => {
      if (keepLast === undefined) await commands.multi().rpush(base + key, ...values).pexpire(base + key, Math.max(1, Math.ceil(ttlMs))).exec()
      else await commands.eval(BOUNDED_APPEND, 2, base + key, base + byteCountKey(key), Math.max(1, Math.ceil(ttlMs)), keepLast, keepBytes, ...values)
    }),
    list: key => run(async () => await commands.lrange(base + key, 0, -1)),
    shift: (key, count) => run(async () => { await commands.ltrim(base + key, count, -1) }),
    hashGet: (key, field) => run(async () => await commands.hget(base + key, field) ?? undefined),
    hashSet: (key, field, value, ttlMs, only = {}) => run(async () => {
      const keys = only.whileExists === undefined ? [base + key] : [base + key, base + only.whileExists]
      const outcome = Number(await commands.eval(CAPPED_HASH_SET, keys.length, ...keys, field, value, only.maxFields ?? Number.MAX_SAFE_INTEGER, Math.max(1, Math.ceil(ttlMs))))
      return outcome === 1 ? 'set' : outcome === 0 ? 'full' : 'absent'
    }),
    hashDelete: (key, fields) => run(async () => { if (fields.length > 0) await commands.hdel(base + key, ...fields) }),
    hashAll: key => run(async () => await commands.hgetall(base + key)),
    publish: (channel, message) => run(async () => await commands.publish(base + channel, message)),
    subscribe: async (channel, listener, subscribed) => {
      listeners.set(base + channel, listener)
      if (subscribed) resubscribed.set(base + channel, subscribed)
      await subscriber.subscribe(base + channel)
      subscribed?.()
    },
    close: async () => {
      listeners.clear()
      resubscribed.clear()
      await Promise.allSettled([commands.quit(), subscriber.quit()])
      commands.disconnect()
      subscriber.disconnect()
    },
  }
}
