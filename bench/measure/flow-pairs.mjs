// The modern elicitation flow, paired: `us` and the v2 floor running at once, one v2 client per
// server in this process, calls alternating us → floor → us …, so machine-state drift hits both
// alike (the bench's RTT pass measures one server at a time, minutes apart). Per pass: medians
// of the flow (ask_form, both rounds), of ask_form_hoisted and ask_form_once (ours), and of a
// plain echo call. Standalone, after one bench build:
//   node bench/measure/flow-pairs.mjs [pairs=200] [passes=3] [floor schemas: factory|module]
import { performance } from 'node:perf_hooks'
import { importRoot } from '../lib/paths.mjs'
import { FORM_ANSWER } from '../lib/tools-spec.mjs'
import { percentile } from '../lib/stats.mjs'
import { prepareServers } from '../servers/catalog.mjs'
import { startTimed } from './cold-start.mjs'

const [pairs = 200, passes = 3] = process.argv.slice(2, 4).map(Number)
// `module`: the floor builds its tools' schemas once (BENCH_SHAPES=module, see servers/v2-floor.mjs).
const floorShapes = process.argv[4] ?? 'factory'
const v2 = await importRoot('sdk-v2/client')
const { entries } = await prepareServers({ reuse: true, log: () => {} })

async function connect(url) {
  const client = new v2.Client({ name: 'bench-pairs', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } })
  client.setRequestHandler('elicitation/create', async () => FORM_ANSWER)
  await client.connect(new v2.StreamableHTTPClientTransport(new URL(url)))
  return client
}

async function timed(client, name) {
  const started = performance.now()
  const result = await client.callTool({ name, arguments: name === 'echo' ? { text: 'hello' } : {} })
  const text = (result.content ?? []).map(item => item.text ?? '').join('')
  if (name === 'echo' ? text !== 'hello' : !text.includes('"Ada"')) throw new Error(`${name} answered ${text.slice(0, 200)}`)
  return performance.now() - started
}

const us = (await startTimed(entries.us.base)).server
const floor = (await startTimed({ ...entries.v2.base, env: { ...entries.v2.base.env, ...(floorShapes === 'module' && { BENCH_SHAPES: 'module' }) } })).server
try {
  const ours = await connect(us.url)
  const theirs = await connect(floor.url)
  const calls = [['us', ours, 'ask_form'], ['v2', theirs, 'ask_form'], ['us', ours, 'ask_form_hoisted'], ['us', ours, 'ask_form_once'], ['us', ours, 'echo'], ['v2', theirs, 'echo']]
  for (let pass = 1; pass <= passes; pass++) {
    const samples = Object.fromEntries(calls.map(([id, , name]) => [`${id} ${name}`, []]))
    for (let i = 0; i < pairs + 20; i++) {
      for (const [id, client, name] of calls) {
        const ms = await timed(client, name)
        if (i >= 20) samples[`${id} ${name}`].push(ms)
      }
    }
    const p50 = key => percentile(samples[key], 50)
    const line = Object.keys(samples).map(key => `${key} ${p50(key).toFixed(2)}`).join(', ')
    console.log(`pass ${pass} (p50 ms): ${line}; flow us ÷ v2 ${(p50('us ask_form') / p50('v2 ask_form')).toFixed(2)}, hoisted ÷ v2 ${(p50('us ask_form_hoisted') / p50('v2 ask_form')).toFixed(2)}, with once() ÷ v2 ${(p50('us ask_form_once') / p50('v2 ask_form')).toFixed(2)}`)
  }
  await ours.close()
  await theirs.close()
}
finally {
  await us.stop()
  await floor.stop()
}
