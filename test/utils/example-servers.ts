// The MCP Apps example servers from npm (@modelcontextprotocol/server-basic-*), nobody here wrote
// them: started on loopback (scripts/loopback-bin.mjs) on a free port, for the host tests.
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { freePort, repoRoot } from './fixture'
import { onFreePort } from '../../scripts/ports.mjs'

export interface ExampleServer { url: URL, output: () => string, stop: () => Promise<void> }

/**
 * Starts `@modelcontextprotocol/server-basic-<flavour>`'s bin on 127.0.0.1; resolves once it
 * printed that it listens on its port (only the process that bound the port prints that) and
 * `/mcp` answers `initialize`. A port taken first is drawn again (`onFreePort`).
 */
export function startExampleServer(flavour: 'vue' | 'vanillajs'): Promise<ExampleServer> {
  const bin = resolve(repoRoot, `node_modules/@modelcontextprotocol/server-basic-${flavour}/dist/index.js`)
  return onFreePort(async (port: number) => {
    let log = ''
    const child = spawn(process.execPath, [resolve(repoRoot, 'scripts/loopback-bin.mjs'), bin], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout?.on('data', (chunk: Buffer) => { log += chunk.toString() })
    child.stderr?.on('data', (chunk: Buffer) => { log += chunk.toString() })
    const stop = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise(r => child.once('exit', r))
      child.kill('SIGTERM')
      await exited
    }
    const url = new URL(`http://127.0.0.1:${port}/mcp`)
    const deadline = Date.now() + 30_000
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server-basic-${flavour} exited:\n${log}`)
      const answered = log.includes(`listening on http://localhost:${port}/mcp`) && await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } }) }).then(response => response.ok, () => false)
      if (answered) return { url, output: () => log, stop }
      if (Date.now() > deadline) {
        await stop()
        throw new Error(`server-basic-${flavour} did not answer on ${url.href} within 30 s:\n${log}`)
      }
      await new Promise(r => setTimeout(r, 200))
    }
  })
}

export { freePort }
