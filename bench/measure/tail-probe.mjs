// Loaded into a server under test (`node --import ./tail-probe.mjs`): keeps an event-loop delay
// histogram and the garbage collections (count, total and longest pause, by kind) since the last
// report, and on SIGUSR2 prints them as one `TAILJSON {…}` line on stderr and starts again.
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks'

const KINDS = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weak' }
const delay = monitorEventLoopDelay({ resolution: 1 })
delay.enable()
let gc = {}

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = KINDS[entry.detail?.kind] ?? String(entry.detail?.kind)
    const slot = gc[kind] ??= { count: 0, total_ms: 0, max_ms: 0 }
    slot.count++
    slot.total_ms += entry.duration
    slot.max_ms = Math.max(slot.max_ms, entry.duration)
  }
}).observe({ entryTypes: ['gc'] })

process.on('SIGUSR2', () => {
  const ms = ns => Math.round(ns / 1e4) / 100
  console.error(`TAILJSON ${JSON.stringify({ eld_p50_ms: ms(delay.percentile(50)), eld_p99_ms: ms(delay.percentile(99)), eld_max_ms: ms(delay.max), gc })}`)
  delay.reset()
  gc = {}
})
