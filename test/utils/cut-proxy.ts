import { createServer, connect } from 'node:net'
import type { Socket } from 'node:net'

/** A TCP proxy in front of a server whose open connections a test can cut, as a flaky network would. */
export interface CutProxy {
  url: URL
  /** Destroys every connection open now (both ends); later ones pass as before. */
  cut: () => void
  /** Destroys every connection open now, and every new one at once, until {@link CutProxy.restore}: a path down for a while. */
  block: () => void
  /** Lets new connections pass again after {@link CutProxy.block}. */
  restore: () => void
  /** The request heads that went through, in order (the first line and the headers). */
  heads: string[]
  close: () => Promise<void>
}

/**
 * Starts a loopback TCP proxy to `target`.
 *
 * @example
 * ```ts
 * const proxy = await startCutProxy(app.url)
 * const client = await connectLegacy(proxy.url)
 * proxy.cut()
 * ```
 */
export async function startCutProxy(target: URL): Promise<CutProxy> {
  const open = new Set<Socket>()
  const heads: string[] = []
  let blocked = false
  const server = createServer((downstream) => {
    if (blocked) return void downstream.destroy()
    const upstream = connect(Number(target.port), target.hostname)
    open.add(downstream)
    open.add(upstream)
    downstream.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1')
      const end = text.indexOf('\r\n\r\n')
      if (/^(GET|POST|DELETE) /.test(text) && end > 0) heads.push(text.slice(0, end))
    })
    downstream.pipe(upstream).pipe(downstream)
    const drop = () => {
      downstream.destroy()
      upstream.destroy()
      open.delete(downstream)
      open.delete(upstream)
    }
    downstream.on('error', drop).on('close', drop)
    upstream.on('error', drop).on('close', drop)
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('the proxy has no port')
  const url = new URL(target)
  url.host = `127.0.0.1:${address.port}`
  const cut = () => {
    for (const socket of open) socket.destroy()
    open.clear()
  }
  return {
    url,
    heads,
    cut,
    block: () => {
      blocked = true
      cut()
    },
    restore: () => {
      blocked = false
    },
    close: () => new Promise(resolve => server.close(() => resolve())),
  }
}
