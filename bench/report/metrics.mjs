// What is reported: each metric reads one number from a server's round result; `floor` names the
// floor it is compared with (v1 for legacy traffic and legacy state, v2 for modern traffic and
// for era-neutral figures, since ours is built on the v2 SDK); `want` says which way is better.

const tp = (era, c, field) => r => r[`echo_${era}`]?.[`c${c}`]?.[field]
const lst = (era, field) => r => r[`list_${era}`]?.c10?.[field]

function throughputMetrics(era, floor) {
  return [1, 10, 50].flatMap(c => [
    { key: `echo_${era}_c${c}_rps`, label: `echo ${era} c${c} throughput`, unit: 'req/s', want: 'up', floor, get: tp(era, c, 'rps') },
    { key: `echo_${era}_c${c}_p50_ms`, label: `echo ${era} c${c} p50`, unit: 'ms', want: 'down', floor, get: tp(era, c, 'p50_ms') },
    { key: `echo_${era}_c${c}_p99_ms`, label: `echo ${era} c${c} p99`, unit: 'ms', want: 'down', floor, get: tp(era, c, 'p99_ms') },
    // wrk's own histogram, kept beside the per-request figure: it over-weights slow requests (bench/README.md).
    { key: `echo_${era}_c${c}_wrk_p99_ms`, label: `echo ${era} c${c} p99 as wrk's histogram says (info)`, unit: 'ms', want: 'down', floor, get: tp(era, c, 'wrk_p99_ms') },
    { key: `echo_${era}_c${c}_cpu`, label: `echo ${era} c${c} server CPU per 1000 req`, unit: 'ms', want: 'down', floor, get: tp(era, c, 'cpu_ms_per_1k') },
  ])
}

export const METRICS = [
  ...throughputMetrics('legacy', 'v1'),
  ...throughputMetrics('modern', 'v2'),
  { key: 'elicit_legacy_rtt_ms', label: 'elicitation RTT legacy (p50)', unit: 'ms', want: 'down', floor: 'v1', get: r => r.rtt_legacy?.elicit_p50_ms },
  { key: 'echo_legacy_call_ms', label: 'plain tools/call legacy, same client (p50)', unit: 'ms', want: 'down', floor: 'v1', get: r => r.rtt_legacy?.echo_p50_ms },
  { key: 'elicit_modern_rtt_ms', label: 'elicitation RTT modern, 2 rounds (p50)', unit: 'ms', want: 'down', floor: 'v2', get: r => r.rtt_modern?.elicit_p50_ms },
  { key: 'echo_modern_call_ms', label: 'plain tools/call modern, same client (p50)', unit: 'ms', want: 'down', floor: 'v2', get: r => r.rtt_modern?.echo_p50_ms },
  { key: 'elicit_modern_hoisted_rtt_ms', label: 'elicitation RTT modern, shape defined at module level (p50)', unit: 'ms', want: 'down', floor: 'v2', get: r => r.rtt_modern_hoisted?.elicit_p50_ms },
  { key: 'echo_modern_call_hoisted_ms', label: 'plain tools/call modern, same client, in the run above (p50)', unit: 'ms', want: 'down', floor: 'v2', get: r => r.rtt_modern_hoisted?.echo_p50_ms },
  { key: 'elicit_modern_paired_ms', label: 'modern elicitation flow, paired pass (p50)', unit: 'ms', want: 'down', floor: 'v2', get: r => r.rtt_modern_paired?.flow_p50_ms },
  { key: 'elicit_modern_paired_hoisted_ms', label: 'modern elicitation flow, paired pass, shape at module level (p50)', unit: 'ms', want: 'down', floor: 'v2', get: r => r.rtt_modern_paired?.hoisted_p50_ms },
  { key: 'elicit_modern_paired_once_ms', label: 'modern elicitation flow, paired pass, behind a once() step (p50)', unit: 'ms', want: 'down', floor: 'v2', get: r => r.rtt_modern_paired?.once_p50_ms },
  { key: 'echo_modern_paired_ms', label: 'plain tools/call modern, paired pass (p50)', unit: 'ms', want: 'down', floor: 'v2', get: r => r.rtt_modern_paired?.echo_p50_ms },
  { key: 'elicit_modern_once_rtt_ms', label: 'elicitation RTT modern, behind a once() step: the replay guard (p50)', unit: 'ms', want: 'down', floor: 'v2', get: r => r.rtt_modern_once?.elicit_p50_ms },
  { key: 'list500_legacy_rps', label: 'tools/list 500 legacy c10 throughput', unit: 'req/s', want: 'up', floor: 'v1', get: lst('legacy', 'rps') },
  { key: 'list500_legacy_cpu', label: 'tools/list 500 legacy server CPU per 1000 req', unit: 'ms', want: 'down', floor: 'v1', get: lst('legacy', 'cpu_ms_per_1k') },
  { key: 'list500_legacy_p50_ms', label: 'tools/list 500 legacy c10 p50', unit: 'ms', want: 'down', floor: 'v1', get: lst('legacy', 'p50_ms') },
  { key: 'list500_modern_rps', label: 'tools/list 500 modern c10 throughput', unit: 'req/s', want: 'up', floor: 'v2', get: lst('modern', 'rps') },
  { key: 'list500_modern_cpu', label: 'tools/list 500 modern server CPU per 1000 req', unit: 'ms', want: 'down', floor: 'v2', get: lst('modern', 'cpu_ms_per_1k') },
  { key: 'list500_modern_p50_ms', label: 'tools/list 500 modern c10 p50', unit: 'ms', want: 'down', floor: 'v2', get: lst('modern', 'p50_ms') },
  { key: 'cold_start_ms', label: 'cold start to first answer', unit: 'ms', want: 'down', floor: 'v2', get: r => r.cold_start_ms },
  { key: 'cold_start_list_ms', label: 'cold start, 500 tools', unit: 'ms', want: 'down', floor: 'v2', get: r => r.cold_start_list_ms },
  { key: 'idle_rss_mb', label: 'idle RSS', unit: 'MB', want: 'down', floor: 'v2', get: r => r.idle_rss_mb },
  { key: 'rss_after_load_mb', label: 'RSS after load', unit: 'MB', want: 'down', floor: 'v2', get: r => r.rss_after_load_mb },
  { key: 'per_session_rss_kb', label: 'RSS per idle legacy session', unit: 'KB', want: 'down', floor: 'v1', get: r => r.memory?.per_session_rss_kb },
  { key: 'per_session_heap_kb', label: 'heap per idle legacy session', unit: 'KB', want: 'down', floor: 'v1', get: r => r.memory?.per_session_heap_kb },
  { key: 'pending_1000_rss_mb', label: 'RSS growth, 1000 pending elicitations (second burst)', unit: 'MB', want: 'down', floor: 'v1', get: r => r.memory?.pending_rss_growth_mb },
  { key: 'pending_1000_heap_mb', label: 'heap growth, 1000 pending elicitations (second burst)', unit: 'MB', want: 'down', floor: 'v1', get: r => r.memory?.pending_heap_growth_mb },
  { key: 'first_pending_1000_rss_mb', label: 'RSS growth, 1000 pending elicitations (first burst)', unit: 'MB', want: 'down', floor: 'v1', get: r => r.memory?.first_pending_rss_growth_mb },
  { key: 'first_pending_1000_heap_mb', label: 'heap growth, 1000 pending elicitations (first burst)', unit: 'MB', want: 'down', floor: 'v1', get: r => r.memory?.first_pending_heap_growth_mb },
  { key: 'released_rss_vs_baseline_mb', label: 'RSS after release − baseline', unit: 'MB', want: 'down', floor: 'v1', get: r => r.memory?.released_rss_vs_baseline_mb },
  { key: 'released_heap_vs_baseline_mb', label: 'heap after release − baseline', unit: 'MB', want: 'down', floor: 'v1', get: r => r.memory?.released_heap_vs_baseline_mb },
]

/** An echo p99 target for one era and connection count: at most the matching bare SDK's. */
const p99Target = (era, floor, c) => ({ key: `p99_c${c}_${era}_ratio_vs_${floor}_floor`, label: `echo ${era} c${c} p99, us ÷ ${floor} floor`, num: ['us', `echo_${era}_c${c}_p99_ms`], den: [floor, `echo_${era}_c${c}_p99_ms`], target: { op: '<=', value: 1.0 } })

/** tools/list with 500 tools at least 15× the floors' throughput: time per request at most 1/15 of theirs. */
const LIST_TIME_GOAL = 1 / 15

/**
 * Ratios computed per round (same round = same machine conditions), then summarized. The targets
 * are the performance issue's goals (round 3, judged on Node 24 with defaults); a target is
 * judged on the median of the per-round ratios, and the report says whether every round agrees
 * (see `clearly` in summarize.mjs).
 */
export const KEY_RATIOS = [
  ...[1, 10, 50].map(c => p99Target('legacy', 'v1', c)),
  ...[1, 10, 50].map(c => p99Target('modern', 'v2', c)),
  { key: 'throughput_c10_legacy_ratio_vs_v1_floor', label: 'echo c10 throughput legacy, us ÷ v1 floor', num: ['us', 'echo_legacy_c10_rps'], den: ['v1', 'echo_legacy_c10_rps'], target: { op: '>=', value: 1.1 } },
  { key: 'throughput_c10_modern_ratio_vs_v2_floor', label: 'echo c10 throughput modern, us ÷ v2 floor', num: ['us', 'echo_modern_c10_rps'], den: ['v2', 'echo_modern_c10_rps'], target: { op: '>=', value: 1.5 } },
  { key: 'throughput_c10_modern_ratio_vs_v2m_floor', label: 'echo c10 throughput modern, us ÷ v2 floor with module-level schemas', num: ['us', 'echo_modern_c10_rps'], den: ['v2m', 'echo_modern_c10_rps'], target: { op: '>=', value: 1.0 } },
  { key: 'elicit_rtt_legacy_ratio_vs_floor', label: 'elicitation RTT legacy, us ÷ v1 floor', num: ['us', 'elicit_legacy_rtt_ms'], den: ['v1', 'elicit_legacy_rtt_ms'], target: { op: '<=', value: 0.8 } },
  // The flow targets judge the paired pass (measure/flow-pairs.mjs); the one-server-at-a-time
  // figures stay as information: their ratio moved from 0.6× to 1.8× between rounds of one run.
  { key: 'elicit_paired_modern_ratio_vs_v2_floor', label: 'modern elicitation flow (paired), us ÷ v2 floor (which signs its state)', num: ['us', 'elicit_modern_paired_ms'], den: ['v2', 'elicit_modern_paired_ms'], target: { op: '<=', value: 0.8 } },
  { key: 'elicit_paired_modern_hoisted_ratio_vs_v2_floor', label: 'modern elicitation flow (paired), shape at module level, us ÷ v2 floor (info)', num: ['us', 'elicit_modern_paired_hoisted_ms'], den: ['v2', 'elicit_modern_paired_ms'] },
  { key: 'elicit_paired_modern_once_ratio_vs_v2_floor', label: 'modern elicitation flow (paired) behind a once() step (replay guard), us ÷ v2 floor (info: the floor keeps no replay record)', num: ['us', 'elicit_modern_paired_once_ms'], den: ['v2', 'elicit_modern_paired_ms'] },
  { key: 'elicit_rtt_modern_ratio_vs_v2_floor', label: 'modern elicitation flow, one server at a time, us ÷ v2 floor (info)', num: ['us', 'elicit_modern_rtt_ms'], den: ['v2', 'elicit_modern_rtt_ms'] },
  { key: 'elicit_rtt_modern_hoisted_ratio_vs_v2_floor', label: 'modern elicitation flow, one server at a time, shape at module level, us ÷ v2 floor (info)', num: ['us', 'elicit_modern_hoisted_rtt_ms'], den: ['v2', 'elicit_modern_rtt_ms'] },
  { key: 'elicit_rtt_modern_once_ratio_vs_v2_floor', label: 'modern elicitation flow, one server at a time, behind a once() step, us ÷ v2 floor (info)', num: ['us', 'elicit_modern_once_rtt_ms'], den: ['v2', 'elicit_modern_rtt_ms'] },
  { key: 'list500_legacy_time_ratio_vs_v1_floor', label: 'tools/list 500 legacy time per request, us ÷ v1 floor (15× its throughput)', num: ['v1', 'list500_legacy_rps'], den: ['us', 'list500_legacy_rps'], target: { op: '<=', value: LIST_TIME_GOAL } },
  { key: 'list500_modern_time_ratio_vs_v2_floor', label: 'tools/list 500 modern time per request, us ÷ v2 floor (15× its throughput)', num: ['v2', 'list500_modern_rps'], den: ['us', 'list500_modern_rps'], target: { op: '<=', value: LIST_TIME_GOAL } },
  { key: 'pending_rss_ratio_vs_v1_floor', label: 'RSS growth, 1000 waiting legacy elicitations (second burst), us ÷ v1 floor', num: ['us', 'pending_1000_rss_mb'], den: ['v1', 'pending_1000_rss_mb'], target: { op: '<=', value: 1.0 } },
  { key: 'pending_heap_ratio_vs_v1_floor', label: 'heap growth, 1000 waiting legacy elicitations (second burst), us ÷ v1 floor', num: ['us', 'pending_1000_heap_mb'], den: ['v1', 'pending_1000_heap_mb'], target: { op: '<=', value: 1.0 } },
  { key: 'released_rss_ratio_vs_v1_floor', label: 'RSS after release − baseline, us ÷ v1 floor', num: ['us', 'released_rss_vs_baseline_mb'], den: ['v1', 'released_rss_vs_baseline_mb'], target: { op: '<=', value: 1.0 } },
  { key: 'released_heap_ratio_vs_v1_floor', label: 'heap after release − baseline, us ÷ v1 floor', num: ['us', 'released_heap_vs_baseline_mb'], den: ['v1', 'released_heap_vs_baseline_mb'], target: { op: '<=', value: 1.0 } },
  { key: 'cpu_per_request_c10_legacy_ratio_vs_v1_floor', label: 'server CPU per echo request at c10 legacy, us ÷ v1 floor (info; load-independent)', num: ['us', 'echo_legacy_c10_cpu'], den: ['v1', 'echo_legacy_c10_cpu'] },
  { key: 'cpu_per_request_c10_modern_ratio_vs_v2_floor', label: 'server CPU per echo request at c10 modern, us ÷ v2 floor (info)', num: ['us', 'echo_modern_c10_cpu'], den: ['v2', 'echo_modern_c10_cpu'] },
  { key: 'elicit_rtt_modern_ratio_vs_one_call', label: 'elicitation RTT modern ÷ one plain tools/call (us; info, the previous round\'s target)', num: ['us', 'elicit_modern_rtt_ms'], den: ['us', 'echo_modern_call_ms'] },
  { key: 'elicit_rtt_modern_floor_ratio_vs_one_call', label: 'elicitation RTT modern ÷ one plain tools/call (v2 floor; info)', num: ['v2', 'elicit_modern_rtt_ms'], den: ['v2', 'echo_modern_call_ms'] },
  { key: 'throughput_c10_legacy_ratio_vs_anchor', label: 'echo c10 throughput legacy, us ÷ anchor (info)', num: ['us', 'echo_legacy_c10_rps'], den: ['anchor', 'echo_legacy_c10_rps'] },
  { key: 'elicit_rtt_legacy_ratio_vs_anchor', label: 'elicitation RTT legacy, us ÷ anchor (info)', num: ['us', 'elicit_legacy_rtt_ms'], den: ['anchor', 'elicit_legacy_rtt_ms'] },
]

/** Absolute targets on a metric of ours. */
export const ABSOLUTE_TARGETS = []
