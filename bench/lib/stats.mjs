// Small statistics helpers: percentiles of samples, median/min/max of per-round figures.

export function percentile(values, p) {
  if (values.length === 0) return undefined
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank]
}

/** { median, min, max, n } of the numeric values (undefined ones skipped); undefined if none. */
export function summarize(values) {
  const xs = values.filter(v => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b)
  if (xs.length === 0) return undefined
  const mid = Math.floor(xs.length / 2)
  const median = xs.length % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2
  return { median, min: xs[0], max: xs.at(-1), n: xs.length }
}

export function ratio(a, b) {
  return a === undefined || b === undefined || b === 0 ? undefined : a / b
}
