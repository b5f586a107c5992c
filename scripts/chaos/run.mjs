// The chaos run (issue 28): three instances of the shared-state fixture behind nginx round-robin,
// one Redis that writes every command to its append-only file before answering, and clients of
// every kind calling an eliciting tool while instances are SIGKILLed and started again on a seeded
// schedule and Redis restarts once. Then the invariants are checked and printed as a table.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { Redis } from 'ioredis'
import { startLoadBalancer, startRedis } from '../cluster.mjs'
import { isPortTaken } from '../ports.mjs'
import { startRuntime } from '../runtimes.mjs'
import { CLIENT_KINDS } from './clients.mjs'
import { formatReport, isRunnerKilledTwice, judge } from './report.mjs'
import { drawSchedule } from './schedule.mjs'
import { runWorker } from './workers.mjs'

/**
 * Workers per client kind: mcp-remote is a process per connection, so one of it; the others two
 * each, the v1 Client's 2025-11-25 tasks (`tasks-legacy`) among them.
 */
const WORKERS = { 'v1': 2, 'v2-legacy': 2, 'v2-modern': 2, 'mcp-remote': 1, 'tasks-modern': 2, 'tasks-legacy': 2 }
/** How long one call may take before it counts as hung. */
const DEADLINE_MS = 30_000
const INSTANCES = 3

const sleep = ms => new Promise(done => setTimeout(done, ms))

function rssMb(pid) {
  try {
    return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024)
  }
  catch {
    return 0
  }
}

/** How many times each call's once() step ran, from the sets of run ids the tool keeps in Redis. */
async function readStepRuns(url) {
  const redis = new Redis(url, { maxRetriesPerRequest: 3 })
  try {
    const keys = []
    let cursor = '0'
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', 'chaos:step:*', 'COUNT', 1000)
      cursor = next
      keys.push(...found)
    } while (cursor !== '0')
    const runs = await Promise.all(keys.map(key => redis.scard(key)))
    return Object.fromEntries(keys.map((key, i) => [key.slice('chaos:step:'.length), runs[i]]))
  }
  finally {
    redis.disconnect()
  }
}

/** The requests nginx proxied for `call`'s principal while it ran: `<upstream> <method> <status> <s taken> ended <s into the run>`. */
function requestsOf(call, upstreamLog, started) {
  return upstreamLog.map(line => line.split(' ')).filter(([, , , , , , user, end]) => {
    const endMs = Number(end) * 1000 - started
    return user === call.user && endMs >= call.at && endMs <= call.at + call.ms + 1000
  }).map(([upstream, method, , status, taken, , , end]) => `  ${upstream} ${method} ${status} ${taken} s, ended ${(Number(end) - started / 1000).toFixed(2)} s`)
}

/**
 * A call that ran to its deadline while nginx answered one of its principal's POSTs with 502 lost
 * its answer with a killed instance: that POST was the answer, sent to an instance as it died, and
 * the SDKs do not send an answer again. Such a call is marked `answer-died-with-instance`; any
 * other stays a `hang`.
 */
function explainTimeouts(calls, upstreamLog, started) {
  for (const call of calls.filter(call => call.failure === 'hang')) {
    if (requestsOf(call, upstreamLog, started).some(line => / POST 502 /.test(line))) call.failure = 'answer-died-with-instance'
  }
}

/**
 * A task call that ran to its deadline while its runner was killed and then the instance that
 * took it over was killed too (`isRunnerKilledTwice`) is marked `runner-killed-twice`; any other
 * stays a `hang`. The processes its handler started in are read from the fixture's counter
 * (`chaos:start:<call>`, `<pid>:<uuid>` per start) while Redis is still up, and kept on the call
 * for the log.
 */
async function explainTaskTimeouts(calls, redisUrl, kills) {
  const hung = calls.filter(call => call.failure === 'hang' && call.kind.startsWith('tasks-'))
  if (hung.length === 0) return
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 3 })
  try {
    for (const call of hung) {
      call.startedOn = (await redis.smembers(`chaos:start:${call.call}`)).map(member => Number(member.split(':')[0]))
      if (isRunnerKilledTwice(call, call.startedOn, kills)) call.failure = 'runner-killed-twice'
    }
  }
  finally {
    redis.disconnect()
  }
}

/**
 * Runs the chaos for `seconds` with the schedule drawn from `seed`, against the shared-state
 * fixture built in `root`/test/fixtures/shared-state, Redis writing its append-only file with
 * `persistence` (`always`, `everysec`, or `none`: no persistence, to see what that loses), every
 * client kind calling. Resolves with the invariants (`rows`), every
 * call, the printable `report` and `ok` (every invariant holds).
 *
 * @example
 * const run = await runChaos({ root, seconds: 60, seed: 28 })
 * console.log(run.report)
 */
export async function runChaos({ root, seconds, seed, persistence = 'always', log = () => {} }) {
  const fixture = resolve(root, 'test/fixtures/shared-state')
  const events = drawSchedule(seed, seconds, INSTANCES)
  const redis = await startRedis({ appendfsync: persistence === 'none' ? undefined : persistence })
  const lb = await startLoadBalancer()
  const env = {
    NUXT_MCP_REDIS_URL: redis.url,
    NUXT_MCP_STATE_SECRET: 'chaos-run-secret-0123456789abcdefghijklmnop',
    NUXT_MCP_PUBLIC_URL: `http://mcp.test:${lb.port}`,
    NUXT_MCP_TRUSTED_PROXIES: '127.0.0.1',
  }
  const apps = []
  const startInstance = async (port) => {
    const app = await startRuntime({ target: 'node', root: fixture, env, port })
    apps.push(app)
    return { app, startMb: rssMb(app.pid) }
  }
  const slots = await Promise.all(Array.from({ length: INSTANCES }, () => startInstance()))
  const route = () => lb.route(slots.filter(Boolean).map(slot => Number(new URL(slot.app.origin).port)))
  const calls = []
  const probes = []
  const started = Date.now()
  /** Each kill: when it happened (ms into the run; an event may run late) and which process. */
  const kills = []
  const stamp = () => `${((Date.now() - started) / 1000).toFixed(1)} s`
  try {
    await route()
    const url = new URL('/mcp', lb.origin)
    const until = started + seconds * 1000
    log(`chaos: ${seconds} s, seed ${seed}, ${INSTANCES} instances behind ${lb.origin}, Redis ${redis.url} (${persistence === 'none' ? 'no persistence' : `appendfsync ${persistence}`})`)
    const workers = CLIENT_KINDS.flatMap(kind => Array.from({ length: WORKERS[kind] }, (_, index) => runWorker({ kind, index, url, root, zero: started, until, deadlineMs: DEADLINE_MS, calls, probes })))
    for (const event of events) {
      // (The previous event may have run late: starting a process again takes its own time.)
      await sleep(Math.max(0, started + event.at - Date.now()))
      if (event.kind === 'kill') {
        const { app } = slots[event.instance]
        log(`${stamp()}: SIGKILL instance ${event.instance} (pid ${app.pid}), back in ${event.downMs} ms`)
        kills.push({ at: Date.now() - started, pid: app.pid })
        process.kill(-app.pid, 'SIGKILL')
        await sleep(event.downMs)
        // Back on its own port, as a supervisor restarts it: nginx passes over it while it is down
        // and needs no reload (a reload closes idle client connections, and a POST the client sent
        // on one as it closed would be lost with it). On another port when that one was taken.
        const port = Number(new URL(app.origin).port)
        slots[event.instance] = await startInstance(port).catch(async (error) => {
          if (!isPortTaken(error)) throw error
          const moved = await startInstance()
          await route()
          return moved
        })
      }
      else {
        log(`${stamp()}: Redis killed, back in ${event.downMs} ms`)
        await redis.stop()
        await sleep(event.downMs)
        await redis.start()
      }
      event.done = true
    }
    await Promise.all(workers)
    log(`${stamp()}: every worker stopped; checking`)
    explainTimeouts(calls, lb.upstreamLog(), started)
    await explainTaskTimeouts(calls, redis.url, kills)
    for (const call of calls.filter(call => call.failure === 'hang' || call.failure === 'runner-killed-twice')) {
      log(`${call.call} ${call.failure === 'hang' ? 'hung' : 'ran to its deadline, its runner and the instance that took it over both killed'}; questions that reached the client: first ${call.asked.get(`first ${call.call}`) ?? 0}, second ${call.asked.get(`second ${call.call}`) ?? 0}${call.startedOn === undefined ? '' : `; its handler started ${call.startedOn.length} times (pids ${call.startedOn.join(', ')})`}; its principal's requests as nginx saw them:\n${requestsOf(call, lb.upstreamLog(), started).join('\n')}`)
    }
    const stepRuns = await readStepRuns(redis.url)
    const memory = slots.map(slot => ({ startMb: slot.startMb, endMb: rssMb(slot.app.pid) }))
    const rows = judge({ calls, probes, stepRuns, memory, events, kinds: CLIENT_KINDS })
    for (const call of calls.filter(call => !call.ok)) log(`failed: ${call.call} at ${(call.at / 1000).toFixed(1)} s after ${call.ms} ms, ${call.failure}: ${call.message.split('\n')[0]}`)
    const ok = rows.every(row => row.ok)
    // What the instances said, for a run that broke an invariant (killed ones included).
    if (!ok) for (const app of apps) log(`--- instance pid ${app.pid} ---\n${app.output().split('\n').filter(line => line.includes('[nuxt-mcp-elicitation]')).slice(-40).join('\n')}`)
    return { seed, seconds, rows, calls, ok, report: formatReport({ seed, seconds, rows, calls, kinds: CLIENT_KINDS }) }
  }
  finally {
    await lb.stop()
    await Promise.all(slots.filter(Boolean).map(slot => slot.app.stop()))
    await redis.stop({ remove: true })
  }
}
