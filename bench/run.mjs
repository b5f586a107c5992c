#!/usr/bin/env node
// npm run bench [-- --quick] [-- --rounds N] [-- --profile] [-- --rebuild] [-- --report] [-- --no-runtimes]
// Builds/starts the four servers, runs them interleaved round by round, writes
// bench/results/latest.{md,json} and prints the table. See bench/README.md.
import { mkdir, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { performance } from 'node:perf_hooks'
import { agent } from './lib/mcp-http.mjs'
import { resultsDir, workDir } from './lib/paths.mjs'
import { ensureBenchDeps, ensureLoadTool } from './lib/setup.mjs'
import { profileMarkdown, profileServer } from './measure/profile.mjs'
import { runServerRound } from './measure/server-round.mjs'
import { benchRuntimes } from './measure/runtimes.mjs'
import { SERVERS, prepareServers } from './servers/catalog.mjs'
import { summarizeRun } from './report/summarize.mjs'
import { readAnalysis, textTable, writeResults } from './report/render.mjs'
import { ensureSupportedNode } from '../scripts/node-runtime.mjs'

// Measured on a Node that Nuxt supports (22 from .cache/ when the system Node is older).
ensureSupportedNode(import.meta.filename)

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const flag = name => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined }
const plan = quick
  ? { rounds: 1, seconds: 2, warmupSeconds: 1, rttIterations: 20, memory: { sessions: 200, pending: 1000 } }
  : { rounds: 3, seconds: 3, warmupSeconds: 1, rttIterations: 60, memory: { sessions: 1000, pending: 1000 } }
if (flag('--rounds')) plan.rounds = Math.max(1, Number(flag('--rounds')))
const only = flag('--only')?.split(',')

const t0 = performance.now()
const log = message => console.log(`[bench ${((performance.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${message}`)

async function main() {
  await mkdir(resultsDir, { recursive: true })
  await mkdir(`${workDir}/logs`, { recursive: true })
  const loadStart = os.loadavg()
  log(`mode ${quick ? 'quick' : 'full'}: ${plan.rounds} round(s), ${plan.seconds} s per load run; load average ${loadStart.map(x => x.toFixed(2)).join(' ')} on ${os.cpus().length} CPU(s)`)
  if (loadStart[0] > os.cpus().length * 0.75) log(`WARNING: the machine is already busy (load ${loadStart[0].toFixed(2)}): absolute figures will be low and noisy; the interleaved ratios are what to read.`)
  log('setup')
  await ensureBenchDeps(log)
  const loadTool = await ensureLoadTool(log)
  process.env.BENCH_LOAD_TOOL = loadTool
  log(`load generator: ${loadTool}`)
  log(`building the Nuxt apps${quick ? ' (reused when unchanged)' : ''}`)
  const { entries, builds, skipped } = await prepareServers({ reuse: quick && !args.includes('--rebuild'), log })
  const servers = SERVERS.filter(s => entries[s.id] && (!only || only.includes(s.id)))
  const notes = Object.entries(skipped).map(([id, why]) => `${id} skipped: ${why}`)

  const rounds = Object.fromEntries(servers.map(s => [s.id, []]))
  for (let round = 1; round <= plan.rounds; round++) {
    for (const server of servers) {
      log(`round ${round}/${plan.rounds}: ${server.id} (${server.label})`)
      try {
        const result = await runServerRound(entries[server.id], plan, log, server.id)
        rounds[server.id].push(result)
        for (const note of result.notes ?? []) notes.push(`round ${round}, ${server.id}: ${note}`)
        if (!result.serves_modern && round === 1) notes.push(`${server.id} does not serve 2026-07-28 requests: its modern figures are n/a.`)
        const c10 = result.echo_legacy?.c10
        log(`  cold ${result.cold_start_ms?.toFixed(0)} ms, echo legacy c10 ${c10?.rps?.toFixed(0)} req/s${result.echo_modern ? `, modern c10 ${result.echo_modern.c10?.rps?.toFixed(0)} req/s` : ''}, elicit legacy ${result.rtt_legacy?.elicit_p50_ms?.toFixed(1)} ms, pending growth ${result.memory?.pending_rss_growth_mb?.toFixed(1)} MB`)
      }
      catch (error) {
        rounds[server.id].push(undefined)
        notes.push(`round ${round}, ${server.id} failed: ${error.message.split('\n')[0]}`)
        log(`  ! ${server.id} failed: ${error.message}`)
      }
    }
  }

  let profile
  if (args.includes('--profile')) {
    log('profiling us (node --cpu-prof): legacy echo, modern echo, modern elicitation')
    profile = profileMarkdown({ us: await profileServer('us', entries.us.base, { seconds: plan.seconds + 2, scenarios: ['legacy-echo-c10', 'modern-echo-c10', 'modern-elicitation'] }) })
  }

  const summary = summarizeRun(rounds, servers.map(s => s.id))
  const meta = {
    generated_at: new Date().toISOString(),
    mode: quick ? 'quick' : 'full',
    rounds: plan.rounds,
    seconds: plan.seconds,
    plan,
    load_tool: loadTool,
    duration_s: (performance.now() - t0) / 1000,
    machine: { node: process.version, cpus: os.cpus().length, loadavg_start: loadStart, loadavg_end: os.loadavg() },
  }
  await writeResults({ meta, servers, summary, builds, rounds, notes, profile, analysis: await readAnalysis() })
  if (!args.includes('--no-runtimes') && !only) {
    const runtimes = await benchRuntimes({ rounds: plan.rounds, seconds: plan.seconds, iterations: plan.rttIterations, log })
    await writeFile(`${resultsDir}/runtimes.md`, `# nuxt-mcp-elicitation benchmark — runtimes\n\nGenerated by \`npm run bench\` on ${meta.generated_at}, Node ${process.version}.\n\n${runtimes.markdown}`)
    await writeFile(`${resultsDir}/runtimes.json`, `${JSON.stringify({ generated_at: meta.generated_at, raw: runtimes.raw, medians: runtimes.medians }, null, 2)}\n`)
    console.log(`\n${runtimes.markdown}`)
    log('wrote bench/results/runtimes.md and bench/results/runtimes.json')
  }
  console.log(`\n${textTable(summary, servers)}\n`)
  for (const t of summary.targets) console.log(`${t.met === undefined ? 'n/a   ' : t.met ? 'met   ' : 'MISSED'}  ${t.label}: ${t.value === undefined ? 'n/a' : t.value.toFixed(2)} (want ${t.target.op} ${t.target.value})`)
  for (const note of notes) console.log(`note: ${note}`)
  log('wrote bench/results/latest.md and bench/results/latest.json')
}

/** --report: re-render latest.md/json from the raw rounds in latest.json (e.g. after editing analysis.md). */
async function rerender() {
  const { readFile } = await import('node:fs/promises')
  const previous = JSON.parse(await readFile(`${resultsDir}/latest.json`, 'utf8'))
  const servers = SERVERS.filter(s => previous.raw[s.id])
  const summary = summarizeRun(previous.raw, servers.map(s => s.id))
  const profile = previous.profile_markdown
  await writeResults({ meta: previous.meta, servers, summary, builds: previous.builds, rounds: previous.raw, notes: previous.notes, profile, analysis: await readAnalysis() })
  console.log(`${textTable(summary, servers)}\n\nre-rendered bench/results/latest.md and latest.json from the raw rounds in latest.json`)
}

try {
  if (args.includes('--report')) await rerender()
  else await main()
}
finally {
  agent.destroy()
}
