// Ports for the servers the tests and scripts start. A server that can bind port 0 and say which
// port it got is started that way (Nitro's node-server and deno-server presets print it, the test
// OIDC provider prints its issuer): nothing can take its port in between. `nuxi dev` is served on
// the port it prints (it moves when the one asked for is taken). The others (redis-server, nginx,
// Bun, wrangler, the MCP Inspector, an app that must be told its own URL before it starts) are
// handed a port found free a moment before, and started again on another when it was taken
// meanwhile: `onFreePort`. (The benchmarks keep their own helper: they are not the suite.)
import { createServer } from 'node:net'

/**
 * A loopback port free at the time of asking. Another process may bind it before the server it
 * is meant for does: start that server with {@link onFreePort}, which draws again when it was.
 *
 * @example
 * const port = await freePort()
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** Whether a start failed because its port was taken (the messages of Node, Bun, redis-server, nginx, workerd). */
export function isPortTaken(error) {
  const text = error instanceof Error ? `${error.message}\n${error.cause ?? ''}` : String(error)
  return /EADDRINUSE|address already in use|Address in use|port \d+ in use|Is port \d+ in use|bind\(\) to .* failed/i.test(text)
}

/**
 * Runs `start(port)` on a free loopback port; when it fails because that port was taken before
 * the server bound it, draws another, up to `attempts` times. Any other failure is thrown as is.
 *
 * @example
 * const redis = await onFreePort(port => spawnRedis(port))
 */
export async function onFreePort(start, attempts = 5) {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    try {
      return await start(port)
    }
    catch (error) {
      if (attempt >= attempts || !isPortTaken(error)) throw error
    }
  }
}

/**
 * The port a server printed it listens on, or `undefined` while it has not: Nitro's node-server
 * (`Listening on http://127.0.0.1:41234`), bun (`Listening on http://127.0.0.1:41234/...`) and
 * deno-server (`Listening 127.0.0.1:41234`) presets, and wrangler (`Ready on http://127.0.0.1:8787`,
 * coloured or not). Only the process that bound the port prints it: a server that answers on the
 * port is not proof, another process may hold it.
 *
 * @example
 * printedPort('Listening on http://127.0.0.1:41234\n') // 41234
 */
export function printedPort(output) {
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\x1B\[[0-9;]*m/g, '')
  const match = /(?:Listening|Ready) (?:on )?(?:https?:\/\/)?(?:\[[^\]]*\]|[^\s:/]+):(\d+)/.exec(plain)
  return match ? Number(match[1]) : undefined
}
