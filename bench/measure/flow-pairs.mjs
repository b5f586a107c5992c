// The modern elicitation flow, paired: `us` and the v2 floor running at once, one v2 client per
// server in this process, calls alternating us → floor → us …, so machine-state drift hits both
// alike (one server at a time, minutes apart, the flow's ratio moved from 0.6× to 1.8× between
// rounds). One pass gives the medians of the flow (ask_form, both rounds), of ask_form_hoisted
// and ask_form_once (ours), and of a plain echo call. `npm run bench` runs one pass per round;
// standalone, after one bench build:
//   node bench/measure/flow-pairs.mjs [pairs=200] [passes=3] [floor schemas: factory|module]
import { performance } from 'node:perf_hooks'
import { percentile } from '../lib/stats.mjs'
import { startTimed } from './cold-start.mjs'
import { connect } from './elicit-rtt.mjs'

const WARMUP = 20

async function timed(client, name) {
  const started = performance.now()
  const result = await client.callTool({ name, arguments: name === 'echo' ? { text: 'hello' } : {} })
  const text = (result.content ?? []).map(item => item.text ?? '').join('')
  if (name === 'echo' ? text !== 'hello' : !text.includes('"Ada"')) throw new Error(`${name} answered ${text.slice(0, 200)}`)
  return performance.now() - started
}

/**
 * Starts `us` and the v2 floor (`entries` from servers/catalog), runs `passes` passes of `pairs`
 * alternating calls, stops both. Resolves with one entry per pass:
 * `{ us: { flow_p50_ms, hoisted_p50_ms, once_p50_ms, echo_p50_ms }, v2: { flow_p50_ms, echo_p50_ms } }`.
 */
export async function measureFlowPairs(entries, { pairs = 150, passes = 1, floorEnv = {} } = {}) {
  const us = (await startTimed(entries.us.base)).server
  const floor = await startTimed({ ...entries.v2.base, env: { ...entries.v2.base.env, ...floorEnv } }).then(r => r.server, async (error) => {
    await us.stop()
    throw error
  })
  try {
    const ours = await connect('modern', us.url)
    const theirs = await connect('modern', floor.url)
    const calls = [['us', ours.client, 'ask_form'], ['v2', theirs.client, 'ask_form'], ['us', ours.client, 'ask_form_hoisted'], ['us', ours.client, 'ask_form_once'], ['us', ours.client, 'echo'], ['v2', theirs.client, 'echo']]
    const out = []
    for (let pass = 1; pass <= passes; pass++) {
      const samples = Object.fromEntries(calls.map(([id, , name]) => [`${id} ${name}`, []]))
      for (let i = 0; i < pairs + WARMUP; i++) {
        for (const [id, client, name] of calls) {
          const ms = await timed(client, name)
          if (i >= WARMUP) samples[`${id} ${name}`].push(ms)
        }
      }
      const p50 = key => percentile(samples[key], 50)
      out.push({
        us: { flow_p50_ms: p50('us ask_form'), hoisted_p50_ms: p50('us ask_form_hoisted'), once_p50_ms: p50('us ask_form_once'), echo_p50_ms: p50('us echo'), pairs },
        v2: { flow_p50_ms: p50('v2 ask_form'), echo_p50_ms: p50('v2 echo'), pairs },
      })
    }
    await ours.close()
    await theirs.close()
    return out
  }
  finally {
    await us.stop()
    await floor.stop()
  }
}

if (process.argv[1] === import.meta.filename) {
  const { prepareServers } = await import('../servers/catalog.mjs')
  const [pairs = 200, passes = 3] = process.argv.slice(2, 4).map(Number)
  // `module`: the floor builds its tools' schemas once (BENCH_SHAPES=module, see servers/v2-floor.mjs).
  const floorEnv = process.argv[4] === 'module' ? { BENCH_SHAPES: 'module' } : {}
  const { entries } = await prepareServers({ reuse: true, log: () => {} })
  for (const [i, { us, v2 }] of (await measureFlowPairs(entries, { pairs, passes, floorEnv })).entries()) {
    console.log(`pass ${i + 1} (p50 ms): us flow ${us.flow_p50_ms.toFixed(2)}, v2 flow ${v2.flow_p50_ms.toFixed(2)}, us hoisted ${us.hoisted_p50_ms.toFixed(2)}, us once() ${us.once_p50_ms.toFixed(2)}, us echo ${us.echo_p50_ms.toFixed(2)}, v2 echo ${v2.echo_p50_ms.toFixed(2)}; flow us ÷ v2 ${(us.flow_p50_ms / v2.flow_p50_ms).toFixed(2)}, hoisted ÷ v2 ${(us.hoisted_p50_ms / v2.flow_p50_ms).toFixed(2)}, with once() ÷ v2 ${(us.once_p50_ms / v2.flow_p50_ms).toFixed(2)}`)
  }
  const { agent } = await import('../lib/mcp-http.mjs')
  agent.destroy()
}
