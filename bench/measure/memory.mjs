// Memory held by legacy state, each reading taken after a full GC in the server (RSS from /proc,
// V8 heap from the server): `sessions` idle sessions; then `pending` elicitations held open at
// once on 10 of them (ask_form calls nobody answers yet), all answered; the same again on 10 other
// sessions (the second burst, judged); then every session closed, and memory compared with the
// baseline taken before.
import { closeSession, legacyCall, legacyHeaders, openGetStream, openSession, send } from '../lib/mcp-http.mjs'
import { memory, sleep } from '../lib/proc.mjs'
import { FORM_ANSWER } from '../lib/tools-spec.mjs'

const PENDING_SESSIONS = 10

/** Runs `fn` over `items` with at most `limit` in flight; the results in `items`' order. */
export async function pool(items, limit, fn) {
  const results = []
  let next = 0
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await fn(items[index], index)
    }
  }))
  return results
}

function withTimeout(promise, ms, what) {
  let timer
  return Promise.race([promise, new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms) })]).finally(() => clearTimeout(timer))
}

const perItemKb = (after, before, count) => (count ? ((after - before) * 1024) / count : undefined)

/**
 * One burst: `total` ask_form calls held open on the `holders` sessions until every question has
 * arrived, then all answered. Returns the memory before, while held, and the completed count.
 */
async function pendingBurst(server, holders, total) {
  const pending = []
  let notify = () => {}
  const seen = (sessionId, message) => {
    if (message.method !== 'elicitation/create') return
    pending.push({ sessionId, id: message.id })
    notify()
  }
  // A server that does not relate the push to the tool call sends it on the GET stream.
  const streams = holders.map(sessionId => openGetStream(server.url, sessionId, message => seen(sessionId, message)))
  await sleep(300)
  const before = await memory(server)
  const calls = Array.from({ length: total }, (_, i) => {
    const sessionId = holders[i % holders.length]
    return legacyCall(server.url, sessionId, 'tools/call', { name: 'ask_form', arguments: {} }, message => seen(sessionId, message))
  })
  await withTimeout(new Promise((resolve) => {
    notify = () => pending.length >= total && resolve()
    notify()
  }), 60_000, `waiting for ${total} pending elicitations`).catch((error) => { throw new Error(`${error.message} (got ${pending.length})`) })
  const held = await memory(server)
  await pool(pending, 50, ({ sessionId, id }) => send(server.url, { headers: legacyHeaders(sessionId), body: { jsonrpc: '2.0', id, result: FORM_ANSWER } }))
  const answers = await withTimeout(Promise.all(calls), 60_000, 'answered tool calls')
  for (const stream of streams) stream.close()
  return { before, held, pending: pending.length, completed: answers.filter(a => JSON.stringify(a.messages).includes('Ada')).length }
}

/**
 * Idle sessions, then two bursts of `pending` waiting elicitations (the second on fresh sessions,
 * with the allocator already grown by the first: what a server that has been up a while holds),
 * then every session closed and memory compared with the baseline. The judged figures are the
 * second burst's growth and what is left after it (with `bursts: 1`, the first burst's).
 */
export async function measureMemory(server, { sessions: sessionCount, pending: total, bursts = 2 }) {
  const baseline = await memory(server)
  const opened = (await pool(Array.from({ length: sessionCount }), 20, () => openSession(server.url).catch(() => undefined))).filter(Boolean)
  if (opened.length < PENDING_SESSIONS * bursts) throw new Error(`only ${opened.length} sessions opened`)
  await sleep(300)
  const withSessions = await memory(server)

  const first = await pendingBurst(server, opened.slice(0, PENDING_SESSIONS), total)
  await pool(opened.slice(0, PENDING_SESSIONS), 10, id => closeSession(server.url, id))
  await sleep(1000)
  const afterFirst = await memory(server)
  // One burst only (the tasks phase compares a first burst of waiting tasks with this one).
  const second = bursts > 1 ? await pendingBurst(server, opened.slice(PENDING_SESSIONS, PENDING_SESSIONS * 2), total) : first
  await pool(opened.slice(PENDING_SESSIONS), 50, id => closeSession(server.url, id))
  await sleep(1000)
  const released = await memory(server)

  return {
    sessions: opened.length,
    per_session_rss_kb: perItemKb(withSessions.rss_mb, baseline.rss_mb, opened.length),
    per_session_heap_kb: perItemKb(withSessions.heap_mb, baseline.heap_mb, opened.length),
    pending: second.pending,
    completed: bursts > 1 ? first.completed + second.completed : first.completed,
    first_pending_rss_growth_mb: first.held.rss_mb - first.before.rss_mb,
    first_pending_heap_growth_mb: first.held.heap_mb - first.before.heap_mb,
    first_released_rss_vs_baseline_mb: afterFirst.rss_mb - baseline.rss_mb,
    first_released_heap_vs_baseline_mb: afterFirst.heap_mb - baseline.heap_mb,
    pending_rss_growth_mb: second.held.rss_mb - second.before.rss_mb,
    pending_heap_growth_mb: second.held.heap_mb - second.before.heap_mb,
    per_pending_heap_kb: perItemKb(second.held.heap_mb, second.before.heap_mb, second.pending),
    baseline_rss_mb: baseline.rss_mb,
    baseline_heap_mb: baseline.heap_mb,
    released_rss_vs_baseline_mb: released.rss_mb - baseline.rss_mb,
    released_heap_vs_baseline_mb: released.heap_mb - baseline.heap_mb,
  }
}
