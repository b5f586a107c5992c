// The bench's charts, SVG files committed beside latest.md: each goal's ratio against its goal
// line, echo p99 by connection count per era, and echo throughput by Node version. Drawn with
// Apache ECharts' server-side SVG renderer (no DOM, no canvas, no browser): a maintained library
// whose SSR mode emits plain SVG strings, so `npm run bench` draws them where it measures.
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import * as echarts from 'echarts'

const COLORS = { met: '#2e7d32', metPale: '#a5d6a7', missed: '#c62828', missedPale: '#ef9a9a', us: '#1565c0', v1: '#8d6e63', v2: '#757575', anchor: '#ab47bc' }
const FONT = { fontFamily: 'system-ui, -apple-system, Segoe UI, sans-serif', fontSize: 12 }

/** One chart as an SVG string: the option drawn once, no animation. */
export function renderSvg(option, { width = 760, height = 420 } = {}) {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height })
  chart.setOption({ animation: false, textStyle: FONT, backgroundColor: '#ffffff', ...option })
  const svg = chart.renderToSVGString()
  chart.dispose()
  return svg
}

/**
 * A goal's ratio as a share of the goal: ≤ 1 meets it whichever way the goal points (for an
 * "at least" goal the goal is divided by the value), so every bar reads the same way.
 */
export function shareOfGoal({ value, target }) {
  if (value === undefined || !(value >= 0)) return undefined
  return target.op === '>=' ? target.value / value : value / target.value
}

const OPS = { '<=': '≤', '>=': '≥', '<': '<' }

function shortLabel(label) {
  return label.replace(/, us ÷ /, ' vs ').replace(/ floor\b/g, '').replace(/ \(which signs its state\)/, '').replace(/ \(15× its throughput\)/, '').replace(/legacy elicitations/, 'legacy questions')
}

/** Each judged goal as a bar (ratio ÷ goal), with the goal line at 1. */
export function goalsChart(targets) {
  const rows = targets.filter(t => shareOfGoal(t) !== undefined).reverse()
  // The verdict's colour; pale where the rounds fall on both sides of the goal.
  const style = t => ({ color: t.met ? (t.clearly === false ? COLORS.metPale : COLORS.met) : (t.clearly === false ? COLORS.missedPale : COLORS.missed) })
  const ratio = value => (value < 0.1 ? value.toFixed(3) : value.toFixed(2))
  return renderSvg({
    title: { text: 'Goals on Node 24: each ratio ÷ its goal (left of the line meets it)', subtext: 'green met, red missed; pale where the rounds fall on both sides of the goal', left: 'center', textStyle: { ...FONT, fontSize: 14 }, subtextStyle: FONT },
    grid: { left: 440, right: 160, top: 62, bottom: 40 },
    xAxis: { type: 'value', name: 'ratio ÷ goal', nameLocation: 'middle', nameGap: 25, min: 0, max: value => Math.max(2, Math.ceil(value.max * 2) / 2) },
    yAxis: { type: 'category', data: rows.map(t => shortLabel(t.label)), axisLabel: { width: 430, overflow: 'truncate' } },
    series: [{
      type: 'bar',
      barWidth: '60%',
      data: rows.map(t => ({ value: Number(shareOfGoal(t).toFixed(3)), itemStyle: style(t) })),
      label: { show: true, position: 'right', formatter: ({ dataIndex }) => `${ratio(rows[dataIndex].value)}× (goal ${OPS[rows[dataIndex].target.op]} ${Number(rows[dataIndex].target.value.toFixed(3))}×)` },
      markLine: { symbol: 'none', silent: true, lineStyle: { color: '#000', type: 'dashed' }, label: { show: false }, data: [{ xAxis: 1 }] },
    }],
  }, { width: 1040, height: 110 + rows.length * 26 })
}

/** Echo p99 by connection count, one panel per era, every server that serves it. */
export function p99Chart(metrics, servers) {
  const connections = [1, 10, 50]
  const panels = [{ era: 'legacy', ids: servers.filter(id => id !== 'v2m') }, { era: 'modern', ids: ['us', 'v2'] }]
  const series = panels.flatMap(({ era, ids }, panel) => ids
    .filter(id => connections.some(c => metrics[`echo_${era}_c${c}_p99_ms`]?.[id]?.median !== undefined))
    .map(id => ({
      type: 'line',
      name: id,
      xAxisIndex: panel,
      yAxisIndex: panel,
      symbolSize: 7,
      itemStyle: { color: COLORS[id] },
      data: connections.map(c => metrics[`echo_${era}_c${c}_p99_ms`]?.[id]?.median ?? null),
    })))
  return renderSvg({
    title: [{ text: 'echo p99 per request (ms), legacy sessions', left: '22%', textAlign: 'center', textStyle: { ...FONT, fontSize: 13 } }, { text: 'echo p99 per request (ms), 2026-07-28', left: '75%', textAlign: 'center', textStyle: { ...FONT, fontSize: 13 } }],
    legend: { bottom: 0, itemGap: 24, data: [...new Set(series.map(s => s.name))] },
    grid: [{ left: 50, right: '53%', top: 40, bottom: 60 }, { left: '55%', right: 20, top: 40, bottom: 60 }],
    xAxis: [0, 1].map(gridIndex => ({ type: 'category', gridIndex, name: 'connections', nameLocation: 'middle', nameGap: 25, data: connections.map(String) })),
    yAxis: [0, 1].map(gridIndex => ({ type: 'value', gridIndex, min: 0 })),
    series,
  })
}

/** Echo throughput at 10 connections by Node major, us beside each era's bare SDK. */
export function nodesChart(medians) {
  const majors = Object.keys(medians)
  const bars = [['us', 'legacy'], ['v1', 'legacy'], ['us', 'modern'], ['v2', 'modern']]
  return renderSvg({
    title: { text: 'echo throughput at 10 connections (req/s) by Node version', left: 'center', textStyle: { ...FONT, fontSize: 14 } },
    legend: { bottom: 0, itemGap: 24 },
    grid: { left: 60, right: 20, top: 40, bottom: 60 },
    xAxis: { type: 'category', data: majors.map(major => `Node ${major}`) },
    yAxis: { type: 'value', min: 0 },
    series: bars.map(([id, era]) => ({
      type: 'bar',
      name: `${id}, ${era}`,
      itemStyle: { color: COLORS[id], opacity: era === 'legacy' ? 0.6 : 1 },
      data: majors.map(major => Math.round(medians[major][id]?.[`echo_${era}_c10_rps`] ?? 0) || null),
    })),
  })
}

/**
 * Draws every chart the committed results allow into `<resultsDir>/charts/`; returns the files
 * written (relative to the repo's bench/results).
 *
 * @example
 * await renderCharts('bench/results') // ['charts/goals.svg', 'charts/p99.svg', 'charts/nodes.svg']
 */
export async function renderCharts(resultsDir) {
  const dir = resolve(resultsDir, 'charts')
  await mkdir(dir, { recursive: true })
  const written = []
  const write = async (name, svg) => {
    await writeFile(resolve(dir, name), `${svg}\n`)
    written.push(`charts/${name}`)
  }
  const latest = JSON.parse(await readFile(resolve(resultsDir, 'latest.json'), 'utf8'))
  await write('goals.svg', goalsChart(latest.targets))
  await write('p99.svg', p99Chart(latest.metrics, Object.keys(latest.servers)))
  if (existsSync(resolve(resultsDir, 'nodes.json'))) {
    await write('nodes.svg', nodesChart(JSON.parse(await readFile(resolve(resultsDir, 'nodes.json'), 'utf8')).medians))
  }
  return written
}
