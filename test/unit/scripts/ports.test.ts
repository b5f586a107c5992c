import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { isPortTaken, onFreePort, printedPort } from '../../../scripts/ports.mjs'

describe('ports for the servers the tests start', () => {
  it('reads the port a server printed: Nitro\'s node-server, bun and deno-server presets, and wrangler', () => {
    expect(printedPort('Listening on http://127.0.0.1:41234\n')).toBe(41234)
    expect(printedPort('[warn] something\nListening on http://[::1]:5173/base\n')).toBe(5173)
    expect(printedPort('Listening 127.0.0.1:8787\n')).toBe(8787)
    expect(printedPort('Listening on http://127.0.0.1:39001/...\n')).toBe(39001)
    expect(printedPort('⎔ Starting local server...\n[wrangler:info] Ready on \x1B[32mhttp://127.0.0.1:38111\x1B[39m\n')).toBe(38111)
    expect(printedPort('Building…\n')).toBeUndefined()
  })

  it('draws another port when a server could not bind the one it was handed, and only then', async () => {
    // A real collision: the first port handed over is bound by someone else before the server starts.
    const holder = createServer()
    const tried: number[] = []
    const bind = (port: number) => new Promise<number>((resolve, reject) => {
      const server = createServer()
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(port)))
    })
    const port = await onFreePort(async (free) => {
      tried.push(free)
      if (tried.length === 1) await new Promise<void>(resolve => holder.listen(free, '127.0.0.1', resolve))
      return bind(free)
    })
    holder.close()
    expect(tried).toHaveLength(2)
    expect(port).toBe(tried[1])
    await expect(onFreePort(async () => { throw new Error('the build is missing') })).rejects.toThrow('the build is missing')
  })

  it('recognises "port taken" as Node, Bun, redis-server, nginx and workerd say it', () => {
    for (const text of [
      'listen EADDRINUSE: address already in use 127.0.0.1:4000',
      'error: Failed to start server. Is port 4000 in use?',
      'Could not create server TCP listening socket 127.0.0.1:4000: bind: Address already in use',
      'nginx: [emerg] bind() to 127.0.0.1:4000 failed (98: Address already in use)',
    ]) expect(isPortTaken(new Error(text)), text).toBe(true)
    expect(isPortTaken(new Error('redis-server did not start: permission denied'))).toBe(false)
  })
})
