// Real shared-state infrastructure for the tests and the bench, from Debian's packages
// (scripts/ensure-debian-packages.sh installs them): a redis-server and an nginx load balancer,
// each on a free loopback port, in a temp folder of their own, stopped with the caller.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createConnection, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const REDIS_SERVER = '/usr/bin/redis-server'
export const NGINX = '/usr/sbin/nginx'

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** Sends one inline command to Redis and resolves with the raw reply. */
export function redisCommand(port, command) {
  return new Promise((resolve, reject) => {
    let reply = ''
    const socket = createConnection({ host: '127.0.0.1', port }, () => socket.write(`${command}\r\n`))
    socket.on('data', (data) => {
      reply += data.toString()
      // A bulk reply ($<n>) is complete once its announced length has arrived; others end with a line.
      const bulk = /^\$(\d+)\r\n/.exec(reply)
      if (bulk ? reply.length >= bulk[0].length + Number(bulk[1]) + 2 : reply.endsWith('\r\n')) {
        socket.destroy()
        resolve(reply)
      }
    })
    socket.once('error', reject)
  })
}

/**
 * A real redis-server on a free loopback port, without persistence. Throws (never skips) when it
 * is not installed, naming the script that installs it.
 *
 * @example
 * const redis = await startRedis()
 * const env = { NUXT_MCP_REDIS_URL: redis.url }
 */
export async function startRedis() {
  if (!existsSync(REDIS_SERVER)) throw new Error(`redis-server not found at ${REDIS_SERVER}: run scripts/ensure-debian-packages.sh (apt-get install -y redis-server).`)
  const port = await freePort()
  let child
  const start = async () => {
    let log = ''
    child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.on('data', (chunk) => { log += chunk.toString() })
    const deadline = Date.now() + 10_000
    for (;;) {
      if ((await redisCommand(port, 'PING').catch(() => '')).startsWith('+PONG')) return
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start on ${port}:\n${log}`)
      await new Promise(done => setTimeout(done, 50))
    }
  }
  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    /** Commands Redis has processed so far (INFO stats). */
    commandsProcessed: async () => Number(/total_commands_processed:(\d+)/.exec(await redisCommand(port, 'INFO stats'))?.[1]),
    stop: async () => {
      const running = child
      if (!running || running.exitCode !== null || running.signalCode !== null) return
      const exited = new Promise(done => running.once('exit', done))
      running.kill('SIGKILL')
      await exited
    },
  }
}

/**
 * nginx on a free loopback port (or `port`), round-robin over `upstreams` with no affinity, set
 * up as the deployment docs say for MCP: no buffering (SSE), HTTP/1.1 keep-alive upstream, the
 * Host passed through, X-Forwarded-For set.
 *
 * @example
 * const lb = await startLoadBalancer([portA, portB])
 */
export async function startLoadBalancer(upstreams, port) {
  if (!existsSync(NGINX)) throw new Error(`nginx not found at ${NGINX}: run scripts/ensure-debian-packages.sh (apt-get install -y nginx).`)
  port ??= await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'mcp-nginx-'))
  const log = join(dir, 'upstream.log')
  writeFileSync(join(dir, 'nginx.conf'), `
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  log_format upstream '$upstream_addr $request_method $request_uri';
  upstream mcp {
    ${upstreams.map(upstream => `server 127.0.0.1:${upstream};`).join('\n    ')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      access_log ${log} upstream;
      proxy_pass http://mcp;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 1h;
    }
  }
}
`)
  const child = spawn(NGINX, ['-c', join(dir, 'nginx.conf'), '-p', dir, '-e', join(dir, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stderr.on('data', (chunk) => { output += chunk.toString() })
  const origin = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 10_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${output}`)
    try {
      await fetch(`${origin}/`, { signal: AbortSignal.timeout(1000) })
      break
    }
    catch {
      if (Date.now() > deadline) throw new Error(`nginx did not answer on ${port}:\n${output}`)
      await new Promise(done => setTimeout(done, 100))
    }
  }
  return {
    origin,
    port,
    /** `<upstream address> <method> <uri>` per request nginx proxied and finished, in order. */
    upstreamLog: () => existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [],
    stop: async () => {
      // SIGTERM: a fast stop. (SIGQUIT would wait for open SSE streams to end.)
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise(done => child.once('exit', done))
        child.kill('SIGTERM')
        await exited
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
