import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createConnection } from 'node:net'
import { freePort } from './fixture'

/** Debian's redis-server; scripts/ensure-debian-packages.sh installs it. */
export const REDIS_SERVER = '/usr/bin/redis-server'

export interface RedisServer {
  url: string
  port: number
  /** Stops the server (its data is gone: no persistence). */
  stop: () => Promise<void>
  /** Starts it again on the same port, empty. */
  start: () => Promise<void>
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'))
    socket.once('data', (data) => {
      socket.destroy()
      resolve(data.toString().startsWith('+PONG'))
    })
    socket.once('error', () => resolve(false))
  })
}

/**
 * A real redis-server on a free loopback port, without persistence, for one test file.
 * Throws (never skips) when it is not installed, naming the script that installs it.
 *
 * @example
 * ```ts
 * const redis = await startRedis()
 * process.env.NUXT_MCP_REDIS_URL = redis.url
 * ```
 */
export async function startRedis(): Promise<RedisServer> {
  if (!existsSync(REDIS_SERVER)) throw new Error(`redis-server not found at ${REDIS_SERVER}: run scripts/ensure-debian-packages.sh (apt-get install -y redis-server).`)
  const port = await freePort()
  let child: ChildProcess | undefined
  const start = async () => {
    let log = ''
    child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], { stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout?.on('data', (chunk: Buffer) => { log += chunk.toString() })
    const deadline = Date.now() + 10_000
    while (!(await answersPing(port))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start on ${port}:\n${log}`)
      await new Promise(done => setTimeout(done, 50))
    }
  }
  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    stop: async () => {
      const running = child
      if (!running || running.exitCode !== null || running.signalCode !== null) return
      const exited = new Promise(done => running.once('exit', done))
      running.kill('SIGKILL')
      await exited
    },
  }
}
