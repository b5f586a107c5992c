// GET /__bench/gc on the floors (the Nuxt apps get the same as a Nitro route): full GC (servers
// run with --expose-gc), then process.memoryUsage(), so memory is read without garbage in it.
export function gcAndMeasure() {
  for (let i = 0; i < 3; i++) globalThis.gc?.()
  return process.memoryUsage()
}

export function serveGc(req, res) {
  if (req.url !== '/__bench/gc') return false
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(gcAndMeasure()))
  return true
}
