import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './fixture'

/** Debian's nginx; scripts/ensure-debian-packages.sh installs it. */
export const NGINX = '/usr/sbin/nginx'

export interface LoadBalancer {
  origin: string
  port: number
  /** `<upstream address> <method> <uri>` per request nginx proxied, in order. */
  upstreamLog: () => string[]
  stop: () => Promise<void>
}

/**
 * nginx on a free loopback port, round-robin over `upstreams` with no affinity, set up as the
 * deployment docs say for MCP: no buffering (SSE), HTTP/1.1 keep-alive upstream, the Host passed
 * through, X-Forwarded-For set.
 *
 * @example
 * ```ts
 * const lb = await startLoadBalancer([portA, portB]) // on a free port, or the one given
 * const client = await connectLegacy(new URL('/mcp', lb.origin))
 * ```
 */
export async function startLoadBalancer(upstreams: number[], port?: number): Promise<LoadBalancer> {
  if (!existsSync(NGINX)) throw new Error(`nginx not found at ${NGINX}: run scripts/ensure-debian-packages.sh (apt-get install -y nginx).`)
  port ??= await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'mcp-nginx-'))
  const log = join(dir, 'upstream.log')
  writeFileSync(join(dir, 'nginx.conf'), `
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
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
    keepalive 16;
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
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString() })
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
    upstreamLog: () => existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [],
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise(done => child.once('exit', done))
        child.kill('SIGQUIT')
        await exited
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
