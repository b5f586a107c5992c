// The schema path of one `askForm` call, without a server: a legacy run whose client answers at
// once, 300 calls a round, rounds interleaved between source trees, the median of the rounds.
// Two forms: an inline Zod 4 shape of six fields written anew for every call (the usual way, and
// the bench's `ask_form`: every call reads and fingerprints it) and the same shape hoisted to one
// object (read once, then found by identity). Their difference is what reading an inline shape
// costs per call; issue 49's profile put 38 ms per 300 legacy round trips in the fingerprint.
// Zod's own construction of the inline shapes is done before the clock starts; the clock is the
// process's CPU time.
//   node --expose-gc bench/measure/ask-form-schema.mjs [rounds=15] [src…=src]
// Give two `src` trees (e.g. one from `git archive <commit> src`, put inside the repository so
// that its imports resolve) to compare them in the same run.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { SIX_FIELD_ANSWER, legacyRun, sixFieldShape } from '../../scripts/ask-form-stub.mjs'
import { registerSourceHooks } from '../../scripts/source-hooks.mjs'

const root = resolve(import.meta.dirname, '../..')
const rounds = Number(process.argv[2] ?? 15)
const trees = (process.argv.length > 3 ? process.argv.slice(3) : ['src']).map(dir => resolve(root, dir))
const CALLS = 300

const { z } = await import('zod')
const shape = () => sixFieldShape(z)

const askForms = []
for (const src of trees) {
  registerSourceHooks(src)
  const { askForm } = await import(pathToFileURL(resolve(src, 'runtime/server/elicitation/ask.ts')).href)
  askForms.push(askForm)
}

async function time(askForm, schemas) {
  // Zod's construction of the shapes leaves garbage: collected before the clock starts, when allowed.
  globalThis.gc?.()
  // CPU time of this process, not wall time: six other processes share the two CPUs of the machine.
  const start = process.cpuUsage()
  for (const schema of schemas) {
    const result = await askForm(legacyRun(SIX_FIELD_ANSWER), { message: 'Who are you?', schema })
    if (result.action !== 'accept') throw new Error('the answer was not accepted')
  }
  const { user, system } = process.cpuUsage(start)
  return (user + system) / 1000
}

const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const hoisted = shape()
const samples = trees.map(() => ({ inline: [], hoisted: [] }))
for (let round = -2; round < rounds; round++) {
  // Two warm-up rounds (JIT, caches) are not counted.
  for (const [index, askForm] of askForms.entries()) {
    const inline = Array.from({ length: CALLS }, shape)
    const a = await time(askForm, inline)
    const b = await time(askForm, Array.from({ length: CALLS }, () => hoisted))
    if (round >= 0) {
      samples[index].inline.push(a)
      samples[index].hoisted.push(b)
    }
  }
}
console.log(`askForm, ${CALLS} legacy calls a round, median of ${rounds} rounds (CPU ms per ${CALLS} calls):`)
for (const [index, src] of trees.entries()) {
  const { inline, hoisted: same } = samples[index]
  const a = median(inline)
  const b = median(same)
  console.log(`  ${src.replace(`${root}/`, '').padEnd(28)} inline shape ${a.toFixed(1).padStart(6)}   hoisted ${b.toFixed(1).padStart(6)}   reading an inline shape ${(a - b).toFixed(1).padStart(6)}`)
}
