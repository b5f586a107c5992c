// Server processes: start on a free loopback port, read their RSS, stop them.
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { readFile, readdir, stat } from 'node:fs/promises'
import { resolve } from 'node:path'

export const HOST = '127.0.0.1'

export function sleep(ms) {
  return new Promise(r => setTimeout(r, ms))
}

export async function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, HOST, () => {
      const { port } = server.address()
      server.close(() => resolvePort(port))
    })
  })
}

/** Resident set size of a process in MB (from /proc). */
export async function rssMb(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1])
  return kb / 1024
}

/**
 * Memory of a server after a full GC: it serves GET /__bench/gc (see servers/gc-route.mjs) and
 * runs with --expose-gc. RSS from /proc, heap from the server's process.memoryUsage().
 */
export async function memory(server) {
  const origin = new URL(server.url).origin
  const usage = await (await fetch(`${origin}/__bench/gc`)).json()
  return { rss_mb: await rssMb(server.pid), heap_mb: usage.heapUsed / 2 ** 20, external_mb: usage.external / 2 ** 20 }
}

const CLOCK_TICKS = 100 // USER_HZ on Linux

/** CPU time (user + system) a process has used so far, in ms (from /proc, 10 ms resolution). */
export async function cpuMs(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS
}

/** Total size in bytes of the files under a directory. */
export async function dirBytes(dir) {
  let total = 0
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = resolve(dir, entry.name)
    if (entry.isDirectory()) total += await dirBytes(path)
    else if (entry.isFile()) total += (await stat(path)).size
  }
  return total
}

/**
 * Spawns `node [nodeArgs] entry` (the bench's own Node unless `node` names another binary) with
 * PORT/HOST (and Nitro's) set; returns a handle. The process
 * is killed by `stop()` (SIGTERM, then SIGKILL after 3 s).
 */
export function spawnServer({ entry, nodeArgs = [], env = {}, port, cwd, node = process.execPath }) {
  let log = ''
  const child = spawn(node, ['--expose-gc', ...nodeArgs, entry], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST, NITRO_HOST: HOST, NITRO_PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(cwd && { cwd }),
  })
  const keep = chunk => { log = (log + chunk.toString()).slice(-20_000) }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  return {
    child,
    pid: child.pid,
    url: `http://${HOST}:${port}/mcp`,
    output: () => log,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise(r => child.once('exit', r))
      child.kill('SIGTERM')
      const force = setTimeout(() => child.kill('SIGKILL'), 3000)
      await exited
      clearTimeout(force)
    },
  }
}
