// One bounded load run against one MCP request: wrk (preferred) or autocannon (fallback).
// Every run stops by itself after `seconds`; the process is killed if it overstays.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { benchDir } from '../lib/paths.mjs'

const LUA = resolve(benchDir, 'measure/mcp.lua')

function runWrk({ url, headers, body, connections, seconds, expect }) {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', LUA, url]
  const env = {
    ...process.env,
    BENCH_BODY: body,
    BENCH_HEADERS: Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\n'),
    ...(expect && { BENCH_EXPECT: expect }),
  }
  return new Promise((resolveRun, reject) => {
    execFile('wrk', args, { env, timeout: (seconds + 20) * 1000, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      const line = stdout.split('\n').find(l => l.startsWith('BENCHJSON '))
      if (!line) return reject(new Error(`wrk gave no summary (${error?.message ?? ''}): ${stdout}\n${stderr}`))
      const r = JSON.parse(line.slice('BENCHJSON '.length))
      const errors = r.connect + r.read + r.write + r.status + r.timeout + r.bad
      // Latencies are the script's own, one per request (mcp.lua says why not wrk's): every good
      // answer must have been matched to its request by id, or the percentiles would be a sample.
      if (r.timed < r.requests - errors) return reject(new Error(`wrk timed ${r.timed} of ${r.requests} answers: the answers do not carry their request's JSON-RPC id where mcp.lua looks for it`))
      // Little's law: one at a time per connection, latencies add up to at most the run's length.
      const busy = (r.mean_us * r.timed) / (r.duration_us * connections)
      if (busy > 1.02) return reject(new Error(`wrk's timings add up to ${busy.toFixed(2)}× the run's ${connections} connection(s) × ${(r.duration_us / 1e6).toFixed(1)} s: they are not one latency per request`))
      resolveRun({ rps: r.requests / (r.duration_us / 1e6), p50_ms: r.p50_us / 1000, p99_ms: r.p99_us / 1000, mean_ms: r.mean_us / 1000, wrk_p99_ms: r.wrk_p99_us / 1000, requests: r.requests, errors })
    })
  })
}

async function runAutocannon({ url, headers, body, connections, seconds, expect }) {
  const { default: autocannon } = await import(resolve(benchDir, 'node_modules/autocannon/autocannon.js'))
  let counter = 0
  let bad = 0
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [{
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', ...headers },
      setupRequest: req => ({ ...req, body: body.replace('__ID__', String(++counter)) }),
      onResponse: (status, resBody) => {
        if (status !== 200 || !resBody.includes(expect ?? '"result"')) bad++
      },
    }],
  })
  return { rps: result.requests.total / (result.duration), p50_ms: result.latency.p50, p99_ms: result.latency.p99, requests: result.requests.total, errors: result.errors + result.timeouts + result.non2xx + bad }
}

export function loadTool() {
  return process.env.BENCH_LOAD_TOOL ?? 'wrk'
}

/** Runs one load; resolves with rps, p50/p99 latency per request (ms), request and error counts. */
export function runLoad(options) {
  if (loadTool() === 'autocannon') {
    if (!existsSync(resolve(benchDir, 'node_modules/autocannon'))) throw new Error('autocannon is not installed in bench/node_modules')
    return runAutocannon(options)
  }
  return runWrk(options)
}
