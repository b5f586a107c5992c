// Turns the per-round results into medians/min–max per metric and server, the key ratios
// (computed round by round) and the target verdicts.
import { ratio, summarize } from '../lib/stats.mjs'
import { ABSOLUTE_TARGETS, KEY_RATIOS, METRICS } from './metrics.mjs'

const METRIC_BY_KEY = Object.fromEntries(METRICS.map(m => [m.key, m]))

function valuesOf(rounds, serverId, metricKey) {
  return (rounds[serverId] ?? []).map(r => (r ? METRIC_BY_KEY[metricKey].get(r) : undefined))
}

function verdict(value, target) {
  if (value === undefined || !target) return undefined
  if (target.op === '>=') return value >= target.value
  if (target.op === '<=') return value <= target.value
  return value < target.value
}

/**
 * The rule for when a difference counts: a verdict is clear when every round's ratio falls on
 * the same side of the target (all met, or all missed); otherwise the rounds disagree and the
 * median's verdict is within the noise of this machine.
 */
function clearly(values, target) {
  const judged = values.filter(v => v !== undefined).map(v => verdict(v, target))
  if (judged.length < 2) return undefined
  return judged.every(Boolean) || judged.every(v => !v)
}

export function summarizeRun(rounds, serverIds) {
  const metrics = {}
  for (const metric of METRICS) {
    metrics[metric.key] = {}
    for (const id of serverIds) metrics[metric.key][id] = summarize(valuesOf(rounds, id, metric.key))
  }
  const ratios = {}
  const perRound = {}
  for (const r of KEY_RATIOS) {
    const num = valuesOf(rounds, ...r.num)
    const den = valuesOf(rounds, ...r.den)
    perRound[r.key] = num.map((value, i) => ratio(value, den[i]))
    ratios[r.key] = summarize(perRound[r.key])
  }
  const targets = [
    ...KEY_RATIOS.filter(r => r.target).map(r => ({ key: r.key, label: r.label, value: ratios[r.key]?.median, target: r.target, rounds: perRound[r.key] })),
    ...ABSOLUTE_TARGETS.map(t => ({ key: t.key, label: t.label, value: metrics[t.metric].us?.median, target: t.target, rounds: [] })),
  ].map(({ rounds: values, ...t }) => ({ ...t, met: verdict(t.value, t.target), clearly: clearly(values, t.target) }))
  return { metrics, ratios, targets }
}
