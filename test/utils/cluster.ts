import { afterAll, beforeAll } from 'vitest'
import { startFixtureOn } from './fixture'
import type { RuntimeApp } from './fixture'
import { redisCommand, startLoadBalancer, startRedis } from '../../scripts/cluster.mjs'
import type { LoadBalancer, RedisServer } from '../../scripts/cluster.mjs'
import { connectRedisState } from '../../src/runtime/server/cluster/redis'
import type { McpSharedState } from '../../src/runtime/server/cluster/shared-state'
import { startCutProxy } from './cut-proxy'
import type { CutProxy } from './cut-proxy'

/** The name the cluster's public URL uses: nginx passes it through as the Host. */
export const PUBLIC_HOST = 'mcp.test'

/** How the cluster's Redis keeps its data: with `appendfsync`, in an append-only file, so it survives a restart. */
export interface RedisOptions { appendfsync?: 'always' | 'everysec' }

export interface Cluster {
  redis: RedisServer
  lb: LoadBalancer
  instances: RuntimeApp[]
  /** The endpoint through nginx, addressed by IP. */
  url: URL
  /** `http://mcp.test:<port>`: the public URL the instances are configured with. */
  publicUrl: string
  stop: () => Promise<void>
}

/**
 * `count` built instances of `fixture` on Node with one `NUXT_MCP_REDIS_URL` (a real
 * redis-server) and one state secret, behind nginx round-robin with no affinity, nginx listed in
 * `NUXT_MCP_TRUSTED_PROXIES` and the public URL on a DNS name.
 *
 * @example
 * ```ts
 * const cluster = await startCluster('shared-state', 2)
 * const client = await connectLegacy(cluster.url)
 * ```
 */
export async function startCluster(fixture: string, count: number, extraEnv: Record<string, string> = {}, redisOptions: RedisOptions = {}): Promise<Cluster> {
  const redis = await startRedis(redisOptions)
  // The balancer first, on a port it holds, so the instances can be told their public URL; they
  // bind ports of their own choosing, and the balancer is pointed at them once they answer.
  const lb = await startLoadBalancer()
  const publicUrl = `http://${PUBLIC_HOST}:${lb.port}`
  const env = {
    NUXT_MCP_REDIS_URL: redis.url,
    NUXT_MCP_STATE_SECRET: 'shared-state-test-secret-0123456789abcdefghij',
    NUXT_MCP_PUBLIC_URL: publicUrl,
    NUXT_MCP_TRUSTED_PROXIES: '127.0.0.1',
    ...extraEnv,
  }
  const instances = await Promise.all(Array.from({ length: count }, () => startFixtureOn('node', fixture, { env })))
  await lb.route(instances.map(instance => Number(new URL(instance.origin).port)))
  return {
    redis,
    lb,
    instances,
    url: new URL('/mcp', lb.origin),
    publicUrl,
    stop: async () => {
      await lb.stop()
      await Promise.all(instances.map(instance => instance.stop()))
      await redis.stop()
    },
  }
}

/**
 * A cluster for the whole test file: started before its first test, stopped after its last.
 * Returns a getter, since the cluster exists only once `beforeAll` has run. (Each file starts
 * its own: files run side by side, and some kill an instance or every Redis connection on purpose,
 * which would break the tests of another file sharing it.)
 *
 * @example
 * ```ts
 * const cluster = useCluster('shared-state', 2)
 * it('…', async () => { const client = await connectLegacy(cluster().url) })
 * ```
 */
export function useCluster(fixture: string, count: number, extraEnv: Record<string, string> = {}, redisOptions: RedisOptions = {}): () => Cluster {
  let cluster: Cluster | undefined
  beforeAll(async () => {
    cluster = await startCluster(fixture, count, extraEnv, redisOptions)
  }, 240_000)
  afterAll(async () => {
    await cluster?.stop()
  })
  return () => {
    if (!cluster) throw new Error('The cluster is not started yet: call useCluster() at the top of the test file and use it inside tests.')
    return cluster
  }
}

/**
 * How many connections `redis` holds (of one `type`, e.g. `pubsub` for subscribers), the one this
 * asks through included: to wait until instances are connected again after a restart.
 *
 * @example
 * ```ts
 * const before = await countRedisClients(redis)
 * await redis.stop(); await redis.start()
 * await until(async () => await countRedisClients(redis) >= before, 'every instance connected again')
 * ```
 */
export async function countRedisClients(redis: RedisServer, type?: 'normal' | 'pubsub'): Promise<number> {
  const list = await redisCommand(redis.port, type ? `CLIENT LIST TYPE ${type}` : 'CLIENT LIST')
  return list.split('\n').filter(line => line.includes('id=')).length
}

/** A redis-server with a cut proxy in front of it, for tests of what crosses instances without an app. */
export interface CuttableRedis {
  redis: RedisServer
  /** The path a test can cut (`block()`) and restore, as if the instance behind it lost Redis. */
  proxy: CutProxy
  /**
   * Opens shared state as one instance would, to Redis directly or through the cut; closed after
   * the file. A promise, since some callers (the host registry) take the connection unopened.
   */
  connect: (through?: 'direct' | 'cut') => Promise<McpSharedState>
  /** How many connections Redis holds in subscriber mode (one per listening instance). */
  subscribers: () => Promise<number>
}

/**
 * Starts a redis-server and a cut proxy before the file's tests, stops both (and every state
 * opened through `connect`) after them. `prefix` keeps the file's keys apart; `route` is the
 * route the shared state is for.
 *
 * @example
 * ```ts
 * const cuttable = useCuttableRedis({ prefix: 'mailbox-test:', route: '/mcp' })
 * it('…', async () => { const receiver = mailboxOf(await cuttable().connect('cut')); cuttable().proxy.block() })
 * ```
 */
export function useCuttableRedis(options: { prefix: string, route: string }): () => CuttableRedis {
  let started: CuttableRedis | undefined
  const states: McpSharedState[] = []
  beforeAll(async () => {
    const redis = await startRedis()
    const proxy = await startCutProxy(new URL(redis.url))
    started = {
      redis,
      proxy,
      connect: (through = 'direct') => {
        const state = connectRedisState({ url: through === 'cut' ? proxy.url.href : redis.url, ...options })
        void state.then(opened => states.push(opened), () => {})
        return state
      },
      subscribers: () => countRedisClients(redis, 'pubsub'),
    }
  })
  afterAll(async () => {
    await Promise.allSettled(states.map(state => state.close()))
    await started?.proxy.close()
    await started?.redis.stop()
  })
  return () => {
    if (!started) throw new Error('Redis is not started yet: call useCuttableRedis() at the top of the test file and use it inside tests.')
    return started
  }
}
