import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'

// The host side's respond endpoint (`mcp.host`) accepts answers of at most 64 KiB. A chunked body
// declares no length: it must be cut off at the limit while it streams in, not read whole first.
let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('host')
})
afterAll(async () => {
  await app?.stop()
})

/**
 * Starts a chunked POST, writes `kilobytes` of a JSON string without ending it, and resolves with
 * the status the server answers while the body is still open (or `undefined` after `waitMs`).
 */
function answerWhileStreaming(kilobytes: number, waitMs: number): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const req = request(new URL('/api/_mcp/elicitations/some-id', app.origin), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-mcp-elicitation': '1', 'transfer-encoding': 'chunked' },
    }, (res) => {
      res.resume()
      clearTimeout(timer)
      resolve(res.statusCode)
      req.destroy()
    })
    req.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close the connection after its 413 while we still write.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error)
    })
    req.write('{"action":"accept","content":{"pad":"')
    for (let i = 0; i < kilobytes; i++) req.write('x'.repeat(1024))
    const timer = setTimeout(() => {
      req.destroy()
      resolve(undefined)
    }, waitMs)
  })
}

describe('host respond endpoint: body limit', () => {
  it('answers 413 to a chunked body over 64 KiB while it is still streaming', async () => {
    // Generous: under the whole suite's load the answer once took more than 5 s to arrive.
    expect(await answerWhileStreaming(256, 15_000)).toBe(413)
  }, 30_000)

  it('still answers a small, well-formed request (404: no such pending elicitation)', async () => {
    const response = await fetch(new URL('/api/_mcp/elicitations/some-id', app.origin), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-mcp-elicitation': '1' },
      body: JSON.stringify({ action: 'decline' }),
    })
    expect(response.status).toBe(404)
  })
})
