// The chaos run's verdict: the invariants the issue names, each checked against what the workers
// wrote down and what Redis counted, printed as a table with a figure per line.
import { CLIENT_KINDS, replyTo } from './clients.mjs'

/** RSS limit for an instance that lived through the run. */
export const MEMORY_LIMIT_MB = 512

function parseResult(text) {
  try {
    return JSON.parse(text)
  }
  catch {
    return undefined
  }
}

function describeCall(call) {
  if (!call) return 'was not recorded'
  return call.ok ? `was answered after ${call.ms} ms` : `failed after ${call.ms} ms: ${call.failure}`
}

/**
 * A 2025-11-25 task taken over whose question was asked once more: the answer to it went to the
 * instance that asked, which died with it, and the instance that took the task over asks again
 * (documented in docs/tasks.md; a 2026-07-28 answer is kept in Redis by whichever instance takes
 * it, so that era has no such case). Counted apart, never more than once per question.
 */
function askedAgainAfterTakeover(call, question) {
  return call.kind === 'tasks-legacy' && (parseResult(call.result)?.starts ?? 1) > 1 && call.asked.get(question) === 2
}

/** Why an answered call breaks "every answer reaches its question exactly once", or undefined. */
function answerProblem(call) {
  const result = parseResult(call.result)
  if (!result) return `result is not the tool's JSON: ${call.result}`
  const questions = [`first ${call.call}`, `second ${call.call}`]
  if (JSON.stringify(result.replies) !== JSON.stringify(questions.map(replyTo))) return `replies ${JSON.stringify(result.replies)} are not its own`
  const twice = questions.find(question => call.asked.get(question) !== 1 && !askedAgainAfterTakeover(call, question))
  if (twice) return `"${twice}" was asked ${call.asked.get(twice) ?? 0} times`
  return undefined
}

/** The client kinds that keep a legacy session, whose sessions are probed with another principal. */
const SESSION_KINDS = ['v1', 'v2-legacy', 'mcp-remote', 'tasks-legacy']

/** `v1 3, mcp-remote 2`: how many of `items` each client kind has. */
function countByKind(items) {
  const counts = new Map()
  for (const item of items) counts.set(item.kind, (counts.get(item.kind) ?? 0) + 1)
  return [...counts].map(([kind, count]) => `${kind} ${count}`).join(', ') || 'none'
}

/**
 * Whether a task call that ran to its deadline is explained by the schedule: its handler started
 * three times or more (`startedOn`: the pid of each start), and every start but one ran in a
 * process the run killed while the call ran (`kills`: `{ at, pid }`, at in ms into the run). So
 * its runner was killed, then the instance that took it over was killed too; each takeover first
 * waits for the dead runner's heartbeat to lapse (6 s), then runs the handler again from its kept
 * answers. Kills of other instances explain nothing, and one takeover alone leaves room within
 * the deadline: such a call stays a hang.
 *
 * @example
 * isRunnerKilledTwice({ kind: 'tasks-modern', at: 318_500, ms: 30_169 }, [101, 202, 303], [{ at: 320_800, pid: 101 }, { at: 334_800, pid: 202 }]) // true
 */
export function isRunnerKilledTwice(call, startedOn, kills) {
  if (!call.kind.startsWith('tasks-') || startedOn.length < 3) return false
  const killed = new Set(kills.filter(kill => kill.at >= call.at && kill.at <= call.at + call.ms).map(kill => kill.pid))
  return startedOn.filter(pid => killed.has(pid)).length >= startedOn.length - 1
}

/**
 * The invariants of a run, each `{ name, ok, figure }`.
 *
 * @example
 * const rows = judge({ calls, probes, stepRuns, memory, events })
 */
export function judge({ calls, probes, stepRuns, memory, events, kinds = CLIENT_KINDS }) {
  const answered = calls.filter(call => call.ok)
  const failed = calls.filter(call => !call.ok)
  const hangs = failed.filter(call => call.failure === 'hang')
  const answerDied = failed.filter(call => call.failure === 'answer-died-with-instance')
  const runnerKilledTwice = failed.filter(call => call.failure === 'runner-killed-twice')
  const unclear = failed.filter(call => call.failure === 'unclassified')
  const answerProblems = answered.map(answerProblem).filter(Boolean)
  const askedAgain = answered.flatMap(call => [`first ${call.call}`, `second ${call.call}`].filter(question => askedAgainAfterTakeover(call, question)))
  const doubledSteps = Object.entries(stepRuns).filter(([, runs]) => runs > 1)
  const wrongPrincipal = answered.filter(call => parseResult(call.result)?.principal !== call.user)
  const leakyProbes = probes.filter(probe => probe.status !== 403 && probe.status !== 404)
  // Every kind that keeps a session and got an answer must have had one of its sessions probed.
  const unprobed = SESSION_KINDS.filter(kind => kinds.includes(kind) && answered.some(call => call.kind === kind) && !probes.some(probe => probe.kind === kind))
  const heaviest = Math.max(0, ...memory.map(instance => instance.endMb))
  const kindsWithout = kinds.filter(kind => !answered.some(call => call.kind === kind))
  const kills = events.filter(event => event.kind === 'kill' && event.done).length
  const redisRestarts = events.filter(event => event.kind === 'redis-restart' && event.done).length
  const tasks = answered.filter(call => call.kind.startsWith('tasks-'))
  const takenOver = tasks.filter(call => (parseResult(call.result)?.starts ?? 1) > 1)
  const byKind = Object.entries(Object.groupBy(failed, call => call.failure)).map(([kind, list]) => `${kind} ${list.length}`).join(', ') || 'none'
  return [
    { name: 'the run happened (kills, a Redis restart, every client kind answered)', ok: kindsWithout.length === 0 && kills > 0 && redisRestarts === 1, figure: `${calls.length} calls, ${answered.length} answered; ${kills} kills, ${redisRestarts} Redis restart${kindsWithout.length ? `; no answered call: ${kindsWithout.join(', ')}` : ''}` },
    { name: 'no call hangs past its deadline', ok: hangs.length === 0, figure: `${hangs.length} hung for no known reason${hangs[0] ? ` (${hangs[0].call}: ${hangs[0].message})` : ''}; ${answerDied.length} ran to the client's own timeout because the answer's POST reached an instance as it was killed (502); ${runnerKilledTwice.length} task${runnerKilledTwice.length === 1 ? '' : 's'} ran to it because its runner and then the instance that took it over were both killed during the call` },
    { name: 'every answer reaches its question exactly once', ok: answerProblems.length === 0, figure: `${answered.length * 2} answers in answered calls, ${answerProblems.length} lost or doubled${answerProblems[0] ? ` (${answerProblems[0]})` : ''}; ${askedAgain.length} asked once more by the instance that took a 2025-11-25 task over, its first answer lost with the instance that asked` },
    { name: 'no once() step runs twice', ok: doubledSteps.length === 0, figure: `${Object.keys(stepRuns).length} steps run, ${doubledSteps.length} twice or more${doubledSteps[0] ? ` (${doubledSteps[0][0]}: ${doubledSteps[0][1]} runs; the call ${describeCall(calls.find(call => call.call === doubledSteps[0][0]))})` : ''}` },
    { name: 'no session is served to another principal', ok: wrongPrincipal.length === 0 && leakyProbes.length === 0 && unprobed.length === 0, figure: `${answered.length} results for their own principal, ${probes.length - leakyProbes.length} of ${probes.length} probes with another refused (${countByKind(probes)})${unprobed.length ? `; never probed: ${unprobed.join(', ')}` : ''}` },
    { name: 'every failure is a clear error', ok: unclear.length === 0, figure: `${failed.length} failed: ${byKind}${unclear[0] ? ` (e.g. ${unclear[0].message})` : ''}` },
    // A figure, not an invariant: whether a kill lands on a running task is up to timing. The
    // invariants above hold for tasks as for every call (no hang, each answer once, each step once).
    { name: 'tasks go on when their instance is killed (another takes them over)', ok: true, figure: `${tasks.length} tasks completed (${countByKind(tasks)}), ${takenOver.length} of them taken over by another instance and finished there${takenOver.length ? ` (${countByKind(takenOver)})` : ''}` },
    { name: 'memory of surviving instances bounded', ok: heaviest < MEMORY_LIMIT_MB, figure: memory.map(instance => `${instance.startMb}→${instance.endMb} MB`).join(', ') + ` (limit ${MEMORY_LIMIT_MB} MB)` },
  ]
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0
}

/** The run as two plain tables: the invariants, then the calls per client kind. */
export function formatReport({ seed, seconds, rows, calls, kinds = CLIENT_KINDS }) {
  const lines = [`chaos run: ${seconds} s, seed ${seed} (replay: npm run chaos -- --seconds ${seconds} --seed ${seed})`, '', '| invariant | holds | figure |', '|---|---|---|']
  for (const row of rows) lines.push(`| ${row.name} | ${row.ok ? 'yes' : '**NO**'} | ${row.figure} |`)
  lines.push('', '| client | calls | answered | failed | median answered call |', '|---|---|---|---|---|')
  for (const kind of kinds) {
    const mine = calls.filter(call => call.kind === kind)
    const answered = mine.filter(call => call.ok)
    lines.push(`| ${kind} | ${mine.length} | ${answered.length} | ${mine.length - answered.length} | ${median(answered.map(call => call.ms))} ms |`)
  }
  return lines.join('\n')
}
