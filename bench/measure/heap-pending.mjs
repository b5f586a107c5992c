// What 1000 pending legacy elicitations keep alive, by object kind: two V8 heap snapshots of one
// server (10 sessions with GET streams open; then the same with 1000 unanswered ask_form calls),
// diffed by constructor. An investigation aid, not part of `npm run bench`:
//   node bench/measure/heap-pending.mjs [server id, default us] [pending, default 1000]
import { mkdir, rm } from 'node:fs/promises'
import { resolve } from 'node:path'
import { agent, closeSession, legacyCall, openGetStream, openSession } from '../lib/mcp-http.mjs'
import { byKind, readSnapshot, takeSnapshot } from '../lib/heap-snapshot.mjs'
import { workDir } from '../lib/paths.mjs'
import { sleep } from '../lib/proc.mjs'
import { prepareServers } from '../servers/catalog.mjs'
import { startTimed } from './cold-start.mjs'

/** { kind: { count, bytes } } over every object of a snapshot. */
function byConstructor(file) {
  return byKind(readSnapshot(file).values())
}

const id = process.argv[2] ?? 'us'
const total = Number(process.argv[3] ?? 1000)
const dir = resolve(workDir, 'heap', id)
await rm(dir, { recursive: true, force: true })
await mkdir(dir, { recursive: true })
const { entries } = await prepareServers({ reuse: true, log: () => {} })
const { server } = await startTimed({ ...entries[id].base, nodeArgs: ['--heapsnapshot-signal=SIGUSR2'], cwd: dir })
try {
  const sessions = await Promise.all(Array.from({ length: 10 }, () => openSession(server.url)))
  let seen = 0
  const count = (message) => { if (message.method === 'elicitation/create') seen++ }
  const streams = sessions.map(s => openGetStream(server.url, s, count))
  await sleep(500)
  const a = byConstructor(await takeSnapshot(server, dir))
  const calls = Array.from({ length: total }, (_, i) => legacyCall(server.url, sessions[i % 10], 'tools/call', { name: 'ask_form', arguments: {} }, count).catch(() => {}))
  for (let i = 0; i < 600 && seen < total; i++) await sleep(100)
  const b = byConstructor(await takeSnapshot(server, dir))
  const rows = [...b].map(([key, v]) => ({ key, count: v.count - (a.get(key)?.count ?? 0), bytes: v.bytes - (a.get(key)?.bytes ?? 0) }))
    .filter(r => r.bytes > 0).sort((x, y) => y.bytes - x.bytes)
  const sum = rows.reduce((s, r) => s + r.bytes, 0)
  console.log(`${id}: ${seen} pending; heap growth by kind (self sizes, ${(sum / 2 ** 20).toFixed(1)} MB in all, ${(sum / 1024 / total).toFixed(1)} KB per pending)`)
  console.log('| kind | + count | + KB | per pending (bytes) |\n|---|---|---|---|')
  for (const r of rows.slice(0, 40)) console.log(`| ${r.key} | ${r.count} | ${(r.bytes / 1024).toFixed(0)} | ${(r.bytes / total).toFixed(0)} |`)
  for (const s of streams) s.close()
  await Promise.all(sessions.map(s => closeSession(server.url, s)))
  await Promise.race([Promise.all(calls), sleep(3000)])
}
finally {
  await server.stop()
  agent.destroy()
  await rm(dir, { recursive: true, force: true }) // snapshots are large
}
