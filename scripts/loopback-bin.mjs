#!/usr/bin/env node
// Runs an npm package's server bin bound to 127.0.0.1, whatever host it asks for: the MCP Apps
// example servers (@modelcontextprotocol/server-basic-*) listen on 0.0.0.0 with only PORT
// configurable, and a test must not open a port beyond loopback.
// Usage: node scripts/loopback-bin.mjs <path of the bin> [args…]
import net from 'node:net'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const listen = net.Server.prototype.listen
net.Server.prototype.listen = function (...args) {
  // listen(port[, host][, backlog][, callback]) or listen({ port, host }): the host becomes loopback.
  if (typeof args[0] === 'object' && args[0] !== null) return listen.call(this, { ...args[0], host: '127.0.0.1' }, ...args.slice(1))
  const callback = args.find(arg => typeof arg === 'function')
  return listen.call(this, Number(args[0]), '127.0.0.1', ...(callback ? [callback] : []))
}
const bin = process.argv[2]
if (!bin) throw new Error('usage: node scripts/loopback-bin.mjs <path of the bin>')
process.argv.splice(2, 1)
await import(pathToFileURL(resolve(bin)).href)
