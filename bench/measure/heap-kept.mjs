// What a server keeps after the memory phase's load is gone (issue 34's "heap after release −
// baseline"), by object kind: the phase's own sequence (warm-up, baseline; 1000 sessions, two
// bursts of 1000 waiting legacy elicitations, every session closed) with a V8 heap snapshot at the
// baseline and one after release; the objects of the second that the first did not hold, grouped.
// An investigation aid, not part of `npm run bench`:
//   node bench/measure/heap-kept.mjs [server ids, default us,v1]
import { mkdir, rm } from 'node:fs/promises'
import { resolve } from 'node:path'
import { agent, closeSession, legacyCall, openSession } from '../lib/mcp-http.mjs'
import { byKind, newObjects, readSnapshot, takeSnapshot } from '../lib/heap-snapshot.mjs'
import { workDir } from '../lib/paths.mjs'
import { prepareServers } from '../servers/catalog.mjs'
import { startTimed } from './cold-start.mjs'
import { measureElicitRtt } from './elicit-rtt.mjs'
import { measureMemory } from './memory.mjs'

/** What the round runs before its memory phase, in small: echo calls and elicitation round trips. */
async function warmUp(url) {
  const sessionId = await openSession(url)
  for (let i = 0; i < 2000; i++) await legacyCall(url, sessionId, 'tools/call', { name: 'echo', arguments: { text: 'hello' } })
  await closeSession(url, sessionId)
  await measureElicitRtt('legacy', url, 60)
}

async function keptBy(id, entry) {
  const dir = resolve(workDir, 'heap', `kept-${id}`)
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  const { server } = await startTimed({ ...entry, nodeArgs: ['--heapsnapshot-signal=SIGUSR2'], cwd: dir })
  try {
    await warmUp(server.url)
    const before = readSnapshot(await takeSnapshot(server, dir))
    const figures = await measureMemory(server, { sessions: 1000, pending: 1000 })
    const after = readSnapshot(await takeSnapshot(server, dir))
    const kept = newObjects(before, after)
    return { figures, kinds: byKind(kept), bytes: kept.reduce((sum, object) => sum + object.bytes, 0) }
  }
  finally {
    await server.stop()
    await rm(dir, { recursive: true, force: true })
  }
}

const ids = (process.argv[2] ?? 'us,v1').split(',')
const { entries } = await prepareServers({ reuse: true, log: () => {} })
try {
  for (const id of ids) {
    const { figures, kinds, bytes } = await keptBy(id, entries[id].base)
    console.log(`\n${id}: heap after release − baseline ${figures.released_heap_vs_baseline_mb.toFixed(2)} MB (process.memoryUsage); objects new since the baseline and alive after release: ${(bytes / 2 ** 20).toFixed(2)} MB self size`)
    console.log('| kind | count | KB | samples |\n|---|---|---|---|')
    for (const [kind, { count, bytes: size, samples }] of [...kinds].slice(0, 30)) console.log(`| ${kind} | ${count} | ${(size / 1024).toFixed(0)} | ${[...samples].map(sample => JSON.stringify(sample).slice(0, 40)).join(', ')} |`)
  }
}
finally {
  agent.destroy()
}
