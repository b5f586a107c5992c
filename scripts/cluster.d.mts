// Types of scripts/cluster.mjs, for the TypeScript tests that use it.
export declare const REDIS_SERVER: string
export declare const NGINX: string
export declare function redisCommand(port: number, command: string): Promise<string>
/** A redis-server on loopback, without persistence unless asked for. */
export interface RedisServer {
  url: string
  port: number
  /** The append-only file's folder, when started with `appendfsync`. */
  dir: string | undefined
  /** Starts it again on the same port: empty, or with what its append-only file kept. */
  start: () => Promise<void>
  commandsProcessed: () => Promise<number>
  /** SIGKILL; `remove` also deletes the append-only file's folder. */
  stop: (options?: { remove?: boolean }) => Promise<void>
}
export declare function startRedis(options?: { appendfsync?: 'always' | 'everysec' }): Promise<RedisServer>
/** nginx round-robin over upstreams on loopback. */
export interface LoadBalancer {
  origin: string
  port: number
  upstreamLog: () => string[]
  /** Balances over `ports` from now on, once a request through it reaches one of them. */
  route: (ports: number[]) => Promise<void>
  stop: () => Promise<void>
}
export declare function startLoadBalancer(upstreams?: number[], port?: number): Promise<LoadBalancer>
