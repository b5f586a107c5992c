// V8 heap snapshots of a bench server, for the investigation aids (bench/measure/heap-*.mjs):
// taken through --heapsnapshot-signal after the server's own full GC, and read into the objects
// they hold. Snapshots are large: callers write them to a scratch folder and remove it.
import { readFileSync } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { memory, sleep } from './proc.mjs'

/**
 * Asks `server` (started with `--heapsnapshot-signal=SIGUSR2`, its cwd `dir`) for a snapshot
 * after a full GC; resolves with the file once it is written whole.
 */
export async function takeSnapshot(server, dir) {
  const before = new Set(await readdir(dir))
  await memory(server)
  server.child.kill('SIGUSR2')
  for (let i = 0; i < 600; i++) {
    await sleep(100)
    const file = (await readdir(dir)).find(f => f.endsWith('.heapsnapshot') && !before.has(f))
    if (!file) continue
    const size = (await stat(resolve(dir, file))).size
    await sleep(500)
    if ((await stat(resolve(dir, file))).size === size && size > 0) return resolve(dir, file)
  }
  throw new Error('no heap snapshot written')
}

/** The kind an object is counted under: `object:Map`, `closure:handler`, `(string)`, `(code)`… */
function kindOf(type, name) {
  return type === 'object' || type === 'closure' ? `${type}:${name}` : `(${type})`
}

/** Every object of a snapshot: id → { kind, bytes, name } (`name`: a string's text, cut short). */
export function readSnapshot(file) {
  const { snapshot: { meta }, nodes, strings } = JSON.parse(readFileSync(file, 'utf8'))
  const width = meta.node_fields.length
  const [typeAt, nameAt, idAt, sizeAt] = ['type', 'name', 'id', 'self_size'].map(f => meta.node_fields.indexOf(f))
  const types = meta.node_types[typeAt]
  const objects = new Map()
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]]
    const name = strings[nodes[i + nameAt]]
    objects.set(nodes[i + idAt], { kind: kindOf(type, name), bytes: nodes[i + sizeAt], name: type === 'string' || type === 'concatenated string' ? name.slice(0, 60) : name })
  }
  return objects
}

/** { kind: { count, bytes, samples } } over a set of objects, largest first (samples: a few names or texts). */
export function byKind(objects) {
  const out = new Map()
  for (const { kind, bytes, name } of objects) {
    const entry = out.get(kind) ?? { count: 0, bytes: 0, samples: new Set() }
    entry.count += 1
    entry.bytes += bytes
    if (entry.samples.size < 4) entry.samples.add(name)
    out.set(kind, entry)
  }
  return new Map([...out].sort((a, b) => b[1].bytes - a[1].bytes))
}

/** The objects of `after` that `before` did not hold (V8 keeps an object's id across snapshots). */
export function newObjects(before, after) {
  return [...after].filter(([id]) => !before.has(id)).map(([, object]) => object)
}
