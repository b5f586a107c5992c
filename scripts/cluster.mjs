// Real shared-state infrastructure for the tests and the bench, from Debian's packages
// (scripts/ensure-debian-packages.sh installs them): a redis-server and an nginx load balancer,
// each on a free loopback port (drawn again when another process took it first, and checked to
// be answered by the server started, not by whoever holds the port), in a temp folder of their
// own, stopped with the caller.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createConnection } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onFreePort } from './ports.mjs'

export const REDIS_SERVER = '/usr/bin/redis-server'
export const NGINX = '/usr/sbin/nginx'

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
 * A real redis-server on a free loopback port. Without persistence by default; with
 * `{ appendfsync: 'always' }` it keeps an append-only file in a temp folder of its own (`dir`,
 * removed by `stop({ remove: true })`), written before each command is answered, so a restart
 * loses nothing it acknowledged. Throws (never skips) when it is not installed, naming the script
 * that installs it.
 *
 * @example
 * const redis = await startRedis()
 * const env = { NUXT_MCP_REDIS_URL: redis.url }
 */
export async function startRedis(options = {}) {
  if (!existsSync(REDIS_SERVER)) throw new Error(`redis-server not found at ${REDIS_SERVER}: run scripts/ensure-debian-packages.sh (apt-get install -y redis-server).`)
  const dir = options.appendfsync ? mkdtempSync(join(tmpdir(), 'mcp-redis-')) : undefined
  const persistence = dir ? ['--dir', dir, '--appendonly', 'yes', '--appendfsync', options.appendfsync] : ['--appendonly', 'no']
  let child
  const startOn = async (port) => {
    let log = ''
    child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence], { stdio: ['ignore', 'pipe', 'pipe'] })
    const started = child
    started.stdout.on('data', (chunk) => { log += chunk.toString() })
    const deadline = Date.now() + 10_000
    for (;;) {
      // Ours only when the server that answers is the process started here.
      const info = await redisCommand(port, 'INFO server').catch(() => '')
      if (new RegExp(`process_id:${started.pid}\\r`).test(info)) return port
      if (started.exitCode !== null || Date.now() > deadline) {
        started.kill('SIGKILL')
        throw new Error(`redis-server did not start on ${port}:\n${log}`)
      }
      await new Promise(done => setTimeout(done, 50))
    }
  }
  const port = await onFreePort(startOn)
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    start: async () => { await startOn(port) },
    /** Commands Redis has processed so far (INFO stats). */
    commandsProcessed: async () => Number(/total_commands_processed:(\d+)/.exec(await redisCommand(port, 'INFO stats'))?.[1]),
    stop: async ({ remove = false } = {}) => {
      const running = child
      if (running && running.exitCode === null && running.signalCode === null) {
        const exited = new Promise(done => running.once('exit', done))
        running.kill('SIGKILL')
        await exited
      }
      if (remove && dir) rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** nginx.conf for a round-robin over `upstreams` (none yet: a port nothing listens on, so 502). */
function nginxConf(dir, port, upstreams, log) {
  const servers = upstreams.length > 0 ? upstreams : [9]
  return `
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
  log_format upstream '$upstream_addr $request_method $request_uri $status $request_time $http_mcp_session_id $http_x_user $msec';
  upstream mcp {
    ${servers.map(upstream => `server 127.0.0.1:${upstream};`).join('\n    ')}
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
`
}

/** Resolves once nginx itself (its `Server` header, not whoever else holds the port) answers `origin` as `ready(status)` wants. */
async function untilNginxAnswers(child, origin, output, ready) {
  const deadline = Date.now() + 10_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${output()}`)
    const response = await fetch(`${origin}/`, { signal: AbortSignal.timeout(1000) }).catch(() => undefined)
    await response?.body?.cancel()
    if (response && response.headers.get('server')?.startsWith('nginx') && ready(response.status)) return
    if (Date.now() > deadline) throw new Error(`nginx did not answer at ${origin}:\n${output()}`)
    await new Promise(done => setTimeout(done, 100))
  }
}

/**
 * nginx on a free loopback port (or `port`), round-robin over `upstreams` with no affinity, set
 * up as the deployment docs say for MCP: no buffering (SSE), HTTP/1.1 keep-alive upstream, the
 * Host passed through, X-Forwarded-For set. With no upstreams yet, `route()` sets them later
 * (the apps behind it can then be told its port before they start).
 *
 * @example
 * const lb = await startLoadBalancer([portA, portB])
 */
export async function startLoadBalancer(upstreams = [], port) {
  if (!existsSync(NGINX)) throw new Error(`nginx not found at ${NGINX}: run scripts/ensure-debian-packages.sh (apt-get install -y nginx).`)
  return port === undefined ? onFreePort(free => startNginx(upstreams, free)) : startNginx(upstreams, port)
}

async function startNginx(upstreams, port) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-nginx-'))
  const log = join(dir, 'upstream.log')
  const conf = join(dir, 'nginx.conf')
  writeFileSync(conf, nginxConf(dir, port, upstreams, log))
  const child = spawn(NGINX, ['-c', conf, '-p', dir, '-e', join(dir, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stderr.on('data', (chunk) => { output += chunk.toString() })
  const origin = `http://127.0.0.1:${port}`
  const stop = async () => {
    // SIGTERM: a fast stop. (SIGQUIT would wait for open SSE streams to end.)
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise(done => child.once('exit', done))
      child.kill('SIGTERM')
      await exited
    }
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await untilNginxAnswers(child, origin, () => output, () => true)
  }
  catch (error) {
    await stop()
    throw error
  }
  return {
    origin,
    port,
    /** `<upstream address> <method> <uri> <status> <seconds taken> <Mcp-Session-Id or -> <X-User or -> <end, epoch s>` per request nginx proxied and finished, in order. */
    upstreamLog: () => existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [],
    /** Balances over `ports` from now on (nginx reloads its configuration), once a request through it reaches one. */
    route: async (ports) => {
      writeFileSync(conf, nginxConf(dir, port, ports, log))
      child.kill('SIGHUP')
      await untilNginxAnswers(child, origin, () => output, status => status !== 502)
    },
    stop,
  }
}
