// Loaded into a server under test (`node --import ./survivors-probe.mjs`, SURVIVORS_OUT=<file>):
// V8's sampling heap profiler, keeping only the sampled objects that outlived a young-generation
// GC (promoted ones, even if a later full GC freed them). On SIGUSR2 writes the profile to
// SURVIVORS_OUT and starts again: where the objects that make scavenges slow were allocated.
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector'

const session = new Session()
session.connect()
const post = (method, params = {}) => new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))))
const start = () => post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false })

await post('HeapProfiler.enable')
await start()
process.on('SIGUSR2', async () => {
  const { profile } = await post('HeapProfiler.stopSampling')
  writeFileSync(process.env.SURVIVORS_OUT, JSON.stringify(profile))
  await start()
})
