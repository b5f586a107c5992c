// Which Redis client the shared state uses, by measurement (`npm run bench -- --only-redis-clients`):
// the same work through ioredis (what the module uses, and what Nitro's own Redis storage driver
// wraps), node-redis (`redis`), and Nitro's storage layer (unstorage's redis driver over ioredis).
// The work is what an instance does on its hot paths: a record written with an expiry and read
// back (a session record), one at a time, and 100 at once (many sessions opening). Interleaved
// rounds on one real redis-server; median of the rounds.
import { createRequire } from 'node:module'
import { performance } from 'node:perf_hooks'
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { startRedis } from '../../scripts/cluster.mjs'
import { percentile } from '../lib/stats.mjs'

const SEQUENTIAL = 2000
const CONCURRENT = 100
const BATCHES = 40
const require = createRequire(resolve(import.meta.dirname, '../../package.json'))
const benchRequire = createRequire(resolve(import.meta.dirname, '../package.json'))

/** Each client as a tiny uniform interface: put with an expiry, get, close. */
async function clients(url) {
  const { Redis } = await import(require.resolve('ioredis'))
  const io = new Redis(url)
  const auto = new Redis(url, { enableAutoPipelining: true })
  const { createClient } = await import(benchRequire.resolve('redis'))
  const node = createClient({ url })
  await node.connect()
  const { createStorage } = await import(require.resolve('unstorage'))
  const redisDriver = (await import(require.resolve('unstorage/drivers/redis'))).default
  const storage = createStorage({ driver: redisDriver({ url, base: 'bench' }) })
  return [
    { name: 'ioredis', put: (k, v) => io.set(k, v, 'PX', 60_000), get: k => io.get(k), close: () => io.quit() },
    { name: 'ioredis, enableAutoPipelining', put: (k, v) => auto.set(k, v, 'PX', 60_000), get: k => auto.get(k), close: () => auto.quit() },
    { name: 'node-redis (redis)', put: (k, v) => node.set(k, v, { PX: 60_000 }), get: k => node.get(k), close: () => node.quit() },
    { name: 'Nitro storage (unstorage redis driver)', put: (k, v) => storage.setItem(k, v, { ttl: 60 }), get: k => storage.getItem(k), close: () => storage.dispose() },
  ]
}

async function timeSequential(client, round) {
  const value = JSON.stringify({ owner: 'address:127.0.0.1', created: Date.now(), initialize: { jsonrpc: '2.0', id: 0, method: 'initialize' } })
  const started = performance.now()
  for (let i = 0; i < SEQUENTIAL; i++) {
    await client.put(`s:${round}:${i}`, value)
    await client.get(`s:${round}:${i}`)
  }
  return (performance.now() - started) * 1000 / (SEQUENTIAL * 2)
}

async function timeConcurrent(client, round) {
  const started = performance.now()
  for (let batch = 0; batch < BATCHES; batch++) {
    await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => client.put(`c:${round}:${batch}:${i}`, 'x').then(() => client.get(`c:${round}:${batch}:${i}`))))
  }
  return (BATCHES * CONCURRENT * 2) / ((performance.now() - started) / 1000)
}

/**
 * Runs `rounds` interleaved rounds; returns the markdown report.
 *
 * @example
 * await measureRedisClients({ rounds: 3 })
 */
export async function measureRedisClients({ rounds = 3, out } = {}) {
  const redis = await startRedis()
  try {
    const list = await clients(redis.url)
    const results = new Map(list.map(client => [client.name, { sequential: [], concurrent: [] }]))
    for (const client of list) await timeSequential(client, 'warm')
    for (let round = 0; round < rounds; round++) {
      for (const client of list) {
        results.get(client.name).sequential.push(await timeSequential(client, round))
        results.get(client.name).concurrent.push(await timeConcurrent(client, round))
      }
    }
    await Promise.all(list.map(client => client.close()))
    const lines = [
      '# Redis clients for the shared state',
      '',
      `${new Date().toISOString().slice(0, 10)}, Node ${process.versions.node}, redis-server on loopback, ${rounds} interleaved rounds, medians.`,
      '',
      '| client | one at a time (µs per command) | 100 at once (commands/s) |',
      '|---|---|---|',
      ...list.map((client) => {
        const { sequential, concurrent } = results.get(client.name)
        return `| ${client.name} | ${percentile(sequential, 50).toFixed(1)} | ${Math.round(percentile(concurrent, 50))} |`
      }),
      '',
    ]
    const report = lines.join('\n')
    if (out) writeFileSync(out, report)
    return report
  }
  finally {
    await redis.stop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await measureRedisClients({ out: resolve(import.meta.dirname, '../results/redis-clients.md') }))
}
