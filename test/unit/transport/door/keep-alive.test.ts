import { createServer } from 'node:http'
import type { Server } from 'node:http'
import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import { createEvent } from 'h3'
import { afterEach, describe, expect, it } from 'vitest'
import { graceIdleConnection } from '../../../../src/runtime/server/transport/door/keep-alive'
import { getMcpScope, runInMcpScope } from '../../../../src/runtime/server/common/context'
import type { McpRequestScope } from '../../../../src/runtime/server/common/context'

let server: Server | undefined

afterEach(async () => {
  server?.closeAllConnections()
  await new Promise(resolve => server ? server.close(resolve) : resolve(undefined))
  server = undefined
})

/** A loopback server with a 100 ms keep-alive timeout; `grace` says whether it graces idle sockets. */
async function listen(grace: boolean): Promise<number> {
  server = createServer((req, res) => {
    if (grace) graceIdleConnection(req, res, 2_000)
    res.end('ok')
  })
  server.keepAliveTimeout = 100
  await new Promise<void>(resolve => server!.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

/** Sends one keep-alive request on a raw socket; resolves with when the server closed it (ms after the answer). */
async function idleLifetime(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let answeredAt = 0
    socket.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ok')) answeredAt = Date.now()
    })
    socket.on('close', () => resolve(Date.now() - answeredAt))
    socket.on('error', reject)
    socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n')
  })
}

describe('graceIdleConnection', () => {
  it('keeps an idle keep-alive connection open past Node\'s own idle timeout, then closes it', async () => {
    const plain = await idleLifetime(await listen(false))
    server?.close()
    const graced = await idleLifetime(await listen(true))
    // Node closes an idle socket shortly after keepAliveTimeout; the grace adds its 2 s on top.
    expect(plain).toBeLessThan(1_800)
    expect(graced).toBeGreaterThanOrEqual(1_900)
    expect(graced).toBeLessThan(4_000)
  })

  it('arms the idle socket\'s timer outside the MCP request scope the response ended in, so the timer keeps no request alive', async () => {
    // A timer keeps the async context it was made in: made in the scope, it would hold the scope's
    // event, request and response for as long as the socket idles (every keep-alive connection).
    const seen: Array<McpRequestScope | undefined> = []
    server = createServer((req, res) => {
      // Past Node's own idle timer (keepAliveTimeout + its 1 s), so the grace arms a timer of its own.
      graceIdleConnection(req, res, 1_500)
      req.socket.once('timeout', () => seen.push(getMcpScope()))
      const scope: McpRequestScope = { event: createEvent(req, res), era: 'legacy', route: '/mcp', signal: new AbortController().signal }
      runInMcpScope(scope, () => res.end('ok'))
    })
    server.keepAliveTimeout = 100
    await new Promise<void>(resolve => server!.listen(0, '127.0.0.1', resolve))
    await idleLifetime((server.address() as AddressInfo).port)
    expect(seen).toEqual([undefined])
  })

  it('serves a late client\'s next request on the same socket, after Node alone would have closed it', async () => {
    const port = await listen(true)
    const answers = await new Promise<number>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1')
      let count = 0
      socket.on('data', (chunk: Buffer) => {
        count += chunk.toString().split('ok').length - 1
        if (count === 1) {
          // 1.5 s idle: past Node's own close (100 ms + its 1 s), inside the 2 s grace.
          setTimeout(() => socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'), 1_500)
        }
        if (count === 2) {
          socket.destroy()
          resolve(count)
        }
      })
      socket.on('close', () => resolve(count))
      socket.on('error', reject)
      socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n')
    })
    expect(answers).toBe(2)
  })
})
