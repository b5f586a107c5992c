import type { IncomingMessage, ServerResponse } from 'node:http'
import { outsideMcpScope } from '../../common/context'

/** How long past the advertised `Keep-Alive: timeout` an idle MCP connection stays open. */
const IDLE_GRACE_MS = 5_000

/** The `keepAliveTimeout` of the HTTP(S) server that accepted this socket, if there is one. */
function keepAliveTimeoutOf(req: IncomingMessage): number | undefined {
  const socket = req.socket
  // Node sets `socket.server` on every socket a `net.Server` accepted; without one, nothing to do.
  const server = 'server' in socket ? socket.server : undefined
  if (typeof server !== 'object' || server === null || !('keepAliveTimeout' in server)) return undefined
  return typeof server.keepAliveTimeout === 'number' && server.keepAliveTimeout > 0 ? server.keepAliveTimeout : undefined
}

/**
 * Lets an idle keep-alive MCP connection stay open until 5 s past the idle timeout Node advertises
 * (Node alone closes it about 1 s past).
 *
 * Why: Node advertises `Keep-Alive: timeout=5` and closes an idle socket about a second after
 * that. Clients (undici, in every Node-based host) drop idle sockets on a coarse timer, so a
 * client whose event loop is busy can send its next POST on a socket the server is closing at
 * that moment. A POST is never retried: the request is lost, and when it carried the answer to a
 * pushed question, the tool waits for an answer that never comes. The extra seconds cost one idle
 * socket each; a client that sends nothing still gets closed.
 *
 * @example
 * ```ts
 * graceIdleConnection(event.node.req, event.node.res)
 * ```
 */
export function graceIdleConnection(req: IncomingMessage, res: ServerResponse, graceMs = IDLE_GRACE_MS): void {
  const keepAliveTimeout = keepAliveTimeoutOf(req)
  if (keepAliveTimeout === undefined) return
  const socket = req.socket
  res.once('finish', () => {
    // Node arms its idle timeout just before this listener runs, and only on a socket that stays
    // open with nothing queued; a socket that closes, or has another request waiting, is left alone.
    const armed = socket.timeout
    if (armed !== undefined && armed >= keepAliveTimeout && armed < keepAliveTimeout + graceMs) {
      // Armed again outside the request's scope: a legacy response ends inside it, and the idle
      // socket's timer would otherwise keep that request's scope (event, request, response) alive.
      outsideMcpScope(() => socket.setTimeout(keepAliveTimeout + graceMs))
    }
  })
}
