// The chaos run's schedule: which instance is killed when, and when Redis restarts, drawn from a
// seed. The same seed gives the same schedule, so a failing run can be replayed (`--seed`).

/**
 * A small seeded generator (mulberry32): the same seed gives the same numbers on every machine.
 *
 * @example
 * const random = seededRandom(42)
 * random() // a number in [0, 1)
 */
export function seededRandom(seed) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6D2B79F5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A seed for a run that was given none (printed, so it can be passed back). */
export function newSeed() {
  return Math.floor(Math.random() * 2 ** 31)
}

/**
 * The events of a run of `seconds` over `instances` instances: an instance SIGKILLed every 8 to
 * 16 s (the first 5 to 12 s in), down for 1 to 3 s, then started again; one Redis restart at 40
 * to 60 % of the run, down for 1 s. Times are in ms from the start; events are in time order.
 *
 * @example
 * drawSchedule(7, 60, 3) // [{ at: 8123, kind: 'kill', instance: 2, downMs: 1870 }, …]
 */
export function drawSchedule(seed, seconds, instances) {
  const random = seededRandom(seed)
  const between = (low, high) => Math.round(low + random() * (high - low))
  const end = seconds * 1000
  const events = []
  for (let at = between(5000, 12_000); at < end - 5000; at += between(8000, 16_000))
    events.push({ at, kind: 'kill', instance: Math.floor(random() * instances), downMs: between(1000, 3000) })
  events.push({ at: between(end * 0.4, end * 0.6), kind: 'redis-restart', downMs: 1000 })
  return events.sort((a, b) => a.at - b.at)
}
