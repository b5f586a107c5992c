import { execFileSync, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { fixtureDir } from './fixture'

/**
 * A network namespace with a veth pair to it: a second host on a private network, as a container
 * or a LAN machine is. Needs root and iproute2 (`.ci/run` runs as root and installs it).
 */
export interface PrivateHost {
  /** This side's address, e.g. 10.213.4.1. */
  hostAddress: string
  /** The namespace's address, e.g. 10.213.4.2: a server started in it listens there. */
  address: string
  /** Starts a built fixture inside the namespace on 0.0.0.0:`port`; resolves once it answers. */
  startFixture: (name: string, port: number, env?: Record<string, string>) => Promise<ChildProcess>
  remove: () => void
}

function ip(...args: string[]): void {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] })
}

/**
 * Creates the namespace `mcp<pid>` and its veth pair on a /30 derived from the process id.
 * Throws with what is missing when the machine cannot (not root, no `ip`).
 *
 * @example
 * ```ts
 * const lan = createPrivateHost()
 * const server = await lan.startFixture('elicitation', 3000)
 * await fetch(`http://${lan.address}:3000/mcp`, …)
 * ```
 */
export function createPrivateHost(): PrivateHost {
  if (process.getuid?.() !== 0) throw new Error('This test creates a network namespace, which needs root (CI runs as root).')
  if (!existsSync('/usr/sbin/ip') && !existsSync('/sbin/ip') && !existsSync('/usr/bin/ip')) throw new Error('`ip` (Debian package iproute2) is missing: .ci/run installs it.')
  const id = process.pid % 100_000
  const name = `mcp${id}`
  const [outside, inside] = [`mcp${id}a`, `mcp${id}b`]
  const subnet = `10.${200 + (id % 50)}.${Math.floor(id / 50) % 250}`
  const hostAddress = `${subnet}.1`
  const address = `${subnet}.2`
  const remove = () => {
    try { ip('link', 'del', outside) }
    catch {}
    try { ip('netns', 'del', name) }
    catch {}
  }
  remove()
  ip('netns', 'add', name)
  ip('link', 'add', outside, 'type', 'veth', 'peer', 'name', inside)
  ip('link', 'set', inside, 'netns', name)
  ip('addr', 'add', `${hostAddress}/30`, 'dev', outside)
  ip('link', 'set', outside, 'up')
  ip('netns', 'exec', name, 'ip', 'addr', 'add', `${address}/30`, 'dev', inside)
  ip('netns', 'exec', name, 'ip', 'link', 'set', inside, 'up')
  ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up')

  async function startFixture(fixture: string, port: number, env: Record<string, string> = {}): Promise<ChildProcess> {
    const entry = resolve(fixtureDir(fixture), '.output/server/index.mjs')
    const child = spawn('ip', ['netns', 'exec', name, process.execPath, entry], {
      env: { ...process.env, PORT: String(port), HOST: '0.0.0.0', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let log = ''
    child.stderr?.on('data', (chunk: Buffer) => { log += chunk.toString() })
    const deadline = Date.now() + 20_000
    for (;;) {
      if (child.exitCode !== null) throw new Error(`The fixture exited inside the namespace:\n${log}`)
      try {
        await fetch(`http://${address}:${port}/`, { signal: AbortSignal.timeout(1000) })
        return child
      }
      catch {
        if (Date.now() > deadline) throw new Error(`The fixture did not answer on ${address}:${port} within 20 s:\n${log}`)
        await new Promise(done => setTimeout(done, 100))
      }
    }
  }

  return { hostAddress, address, startFixture, remove }
}
