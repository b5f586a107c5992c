// The tasks phase of `npm run bench` (issue 31): what running a tool as a task costs against the
// same tool called inline, and what a task waiting for a person holds against a waiting legacy
// elicitation. One app (bench tools + `echo_task` / `ask_form_task`, task-capable: a client that
// declared the tasks extension gets a task, one that did not the ordinary call), built from src/
// with node-server, a fresh process per measurement, interleaved rounds, medians.
// - Latency: raw 2026-07-28 requests, alternating: `echo_task` inline (one POST) and asked as a
//   task (the creating POST, answered directly when the handler has already ended, else
//   `tasks/get` at once and again until `completed`, no pause: what the server costs, not the
//   client's poll interval); the same for `echo_task_later`, whose handler waits on a 0 ms timer,
//   so its task is always handed out.
// - Memory after a full GC in the server: `waiting` tasks in `input_required` (ask_form_task),
//   against `waiting` legacy ask_form calls whose elicitation/create is out (bench/measure/memory.mjs).
import { resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { startRuntime } from '../../scripts/runtimes.mjs'
import { modernHeaders, modernMeta, newId, send } from '../lib/mcp-http.mjs'
import { workDir } from '../lib/paths.mjs'
import { freePort, memory, sleep } from '../lib/proc.mjs'
import { percentile, summarize } from '../lib/stats.mjs'
import { STATE_SECRET } from '../servers/catalog.mjs'
import { buildApp, generateApp } from '../servers/nuxt-apps.mjs'
import { measureMemory, pool } from './memory.mjs'

const PLAIN = { elicitation: { form: {} } }
const WITH_TASKS = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } }
const echoArgs = tool => ({ name: tool, arguments: { text: 'hello' } })

/** One 2026-07-28 request with the given client capabilities; its JSON-RPC result (throws on an error). */
async function request(url, method, params, capabilities, name) {
  const response = await send(url, { headers: modernHeaders(method, name), body: { jsonrpc: '2.0', id: newId(), method, params: { ...params, _meta: modernMeta(capabilities) } } })
  const message = response.messages.at(-1)
  if (!message?.result) throw new Error(`${method} answered HTTP ${response.status}: ${response.text.slice(0, 300) || JSON.stringify(message).slice(0, 300)}`)
  return message.result
}

const createTask = (url, params) => request(url, 'tools/call', params, WITH_TASKS, params.name)
const readTask = (url, taskId) => request(url, 'tasks/get', { taskId }, WITH_TASKS, taskId)

function textOf(result) {
  return (result?.content ?? []).map(item => item.text ?? '').join('')
}

/**
 * `iterations` alternating inline / task-capable calls of `tool` (after a warm-up); p50s in ms,
 * `tasks/get` per call, and the share of calls the server answered directly (2026-07-28's
 * immediate-result shortcut: the handler had ended before the task's handle would go out).
 * Also the several-instances phase's task figure, where the `tasks/get` may reach another instance.
 */
export async function measureTaskLatency(url, iterations, warmup = 20, tool = 'echo_task') {
  const args = echoArgs(tool)
  const inline = []
  const task = []
  const polls = []
  let direct = 0
  for (let i = 0; i < warmup + iterations; i++) {
    let started = performance.now()
    const plain = await request(url, 'tools/call', args, PLAIN, tool)
    const inlineMs = performance.now() - started
    if (textOf(plain) !== 'hello') throw new Error(`${tool} inline answered ${JSON.stringify(plain).slice(0, 200)}`)
    started = performance.now()
    const created = await createTask(url, args)
    let read = 0
    let status = created
    if (created.resultType === 'task') {
      do {
        status = await readTask(url, created.taskId)
        read++
      } while (status.status === 'working')
      if (status.status !== 'completed' || textOf(status.result) !== 'hello') throw new Error(`${tool}'s task ended ${JSON.stringify(status).slice(0, 300)}`)
    }
    else if (textOf(created) !== 'hello') throw new Error(`${tool} with the tasks extension answered ${JSON.stringify(created).slice(0, 200)}`)
    const taskMs = performance.now() - started
    if (i < warmup) continue
    inline.push(inlineMs)
    task.push(taskMs)
    polls.push(read)
    if (created.resultType !== 'task') direct++
  }
  return { inline_p50_ms: percentile(inline, 50), task_p50_ms: percentile(task, 50), task_p99_ms: percentile(task, 99), polls_p50: percentile(polls, 50), direct_share: direct / iterations }
}

/** The same figures for a tool whose task is always handed out (it waits on a timer), prefixed `later_`. */
async function measureLaterTask(url, iterations) {
  const figures = await measureTaskLatency(url, iterations, 20, 'echo_task_later')
  if (figures.direct_share > 0) throw new Error(`echo_task_later was answered directly ${Math.round(figures.direct_share * 100)} % of the time: its task must be handed out`)
  return Object.fromEntries(Object.entries(figures).filter(([key]) => key !== 'direct_share').map(([key, value]) => [`later_${key}`, value]))
}

/** Heap and RSS per task waiting in `input_required`; all cancelled after, and what stays. */
async function measureWaitingTasks(server, count) {
  const before = await memory(server)
  const slots = Array.from({ length: count }, (_, index) => index)
  const ids = await pool(slots, 20, async () => (await createTask(server.url, { name: 'ask_form_task', arguments: {} })).taskId)
  await pool(slots, 20, async (index) => {
    for (let tries = 0; ; tries++) {
      const { status } = await readTask(server.url, ids[index])
      if (status === 'input_required') return
      if (status !== 'working' || tries > 200) throw new Error(`task ${ids[index]} is ${status}, not waiting for its answer`)
      await sleep(20)
    }
  })
  const held = await memory(server)
  await pool(slots, 20, index => request(server.url, 'tasks/cancel', { taskId: ids[index] }, WITH_TASKS, ids[index]))
  return {
    waiting: count,
    per_task_heap_kb: ((held.heap_mb - before.heap_mb) * 1024) / count,
    per_task_rss_kb: ((held.rss_mb - before.rss_mb) * 1024) / count,
  }
}

async function startApp(root) {
  const app = await startRuntime({ target: 'node', root, port: await freePort(), env: { NUXT_MCP_STATE_SECRET: STATE_SECRET, NODE_OPTIONS: '--expose-gc' } })
  return { ...app, url: app.url.href }
}

async function withApp(root, fn) {
  const app = await startApp(root)
  try {
    return await fn(app)
  }
  finally {
    await app.stop()
  }
}

const ratio = (value, base) => (value === undefined || base === undefined ? 'n/a' : `${(value / base).toFixed(2)}×`)
const fmt = (value, digits) => (value === undefined ? 'n/a' : value.toFixed(digits))

/**
 * Runs `rounds` rounds (latency; waiting tasks; waiting legacy elicitations, each in a fresh
 * server); returns the per-round figures, their medians and the markdown for bench/results/tasks.md.
 *
 * @example
 * const { markdown } = await benchTasks({ rounds: 3, iterations: 60, waiting: 1000, log: console.log })
 */
export async function benchTasks({ rounds, iterations, waiting, log }) {
  log('tasks: building the app (bench tools + echo_task, ask_form_task) with node-server')
  const root = await generateApp('us', 'tasks', 'node-server')
  const built = await buildApp(root, resolve(workDir, 'logs', 'build-us-tasks.log'))
  log(`  build ${(built.buildMs / 1000).toFixed(1)} s`)
  const raw = []
  for (let round = 1; round <= rounds; round++) {
    const latency = await withApp(root, async app => ({ ...await measureTaskLatency(app.url, iterations), ...await measureLaterTask(app.url, iterations) }))
    const tasks = await withApp(root, app => measureWaitingTasks(app, waiting))
    const legacy = await withApp(root, app => measureMemory(app, { sessions: 10, pending: waiting, bursts: 1 }))
    if (legacy.completed !== waiting) throw new Error(`only ${legacy.completed} of ${waiting} legacy elicitations completed`)
    raw.push({ ...latency, ...tasks, legacy_per_pending_heap_kb: legacy.per_pending_heap_kb, legacy_per_pending_rss_kb: (legacy.pending_rss_growth_mb * 1024) / waiting })
    log(`  round ${round}/${rounds}: echo inline ${latency.inline_p50_ms.toFixed(2)} ms, asked as a task ${latency.task_p50_ms.toFixed(2)} ms (${Math.round(latency.direct_share * 100)} % answered directly); echo after a timer inline ${latency.later_inline_p50_ms.toFixed(2)} ms, as a task ${latency.later_task_p50_ms.toFixed(2)} ms (${latency.later_polls_p50} tasks/get); heap per waiting task ${tasks.per_task_heap_kb.toFixed(1)} KB, per waiting legacy elicitation ${legacy.per_pending_heap_kb.toFixed(1)} KB`)
  }
  const medians = Object.fromEntries(Object.keys(raw[0]).map(key => [key, summarize(raw.map(run => run[key]))?.median]))
  const m = medians
  const lines = [
    '## Tasks: a task against the same tool inline, and a waiting task against a waiting elicitation',
    '',
    `One app (the module from src/, node-server, tasks in memory), a fresh process per measurement; ${rounds} round(s), medians. Latency: raw 2026-07-28 requests, ${iterations} alternating pairs per round, the task read back with \`tasks/get\` at once and again until \`completed\` (no poll interval: the server's cost, not a client's wait). Memory: heap after a full GC, ${waiting} at once.`,
    '',
    '| figure | as a task | the ordinary way | ratio | goal |',
    '|---|---|---|---|---|',
    `| echo, call to result p50 (ms) | ${fmt(m.task_p50_ms, 2)} (p99 ${fmt(m.task_p99_ms, 2)}; ${fmt(m.direct_share * 100, 0)} % answered directly) | ${fmt(m.inline_p50_ms, 2)} inline | ${ratio(m.task_p50_ms, m.inline_p50_ms)} | ≤ 1.5× |`,
    `| echo after a 0 ms timer, its task handed out: call to result p50 (ms) | ${fmt(m.later_task_p50_ms, 2)} (p99 ${fmt(m.later_task_p99_ms, 2)}, ${fmt(m.later_polls_p50, 0)} tasks/get) | ${fmt(m.later_inline_p50_ms, 2)} inline | ${ratio(m.later_task_p50_ms, m.later_inline_p50_ms)} | |`,
    `| heap per waiting question (KB) | ${fmt(m.per_task_heap_kb, 1)} per task in input_required | ${fmt(m.legacy_per_pending_heap_kb, 1)} per legacy elicitation | ${ratio(m.per_task_heap_kb, m.legacy_per_pending_heap_kb)} | ≤ 1.0× |`,
    `| RSS per waiting question (KB) | ${fmt(m.per_task_rss_kb, 1)} | ${fmt(m.legacy_per_pending_rss_kb, 1)} | ${ratio(m.per_task_rss_kb, m.legacy_per_pending_rss_kb)} | |`,
    '',
    'Reading it: the echo\'s handler has ended before its task\'s handle would go out, so the server answers the call directly (2026-07-28\'s immediate-result shortcut; `tasks-immediate-result-shortcut` in the official suite) and forgets the task: one request, as inline. A task that is handed out (the second row: its handler waits on a timer first) is at least two requests, the call that creates it and one `tasks/get` that finds it completed, and a `tasks/get` costs about what the inline call does, since what every request pays dominates a call this small: that ratio stays well above 1× (the plain echo, handed out as a task before the shortcut, took 1.83×). A client polls at the server\'s `pollIntervalMs` (1 s by default), far above either figure. The heap figure counts what a waiting task keeps: its handler, its record and the request\'s `event`, not the request\'s transport and server.',
  ]
  return { raw, medians, markdown: `${lines.join('\n')}\n` }
}
