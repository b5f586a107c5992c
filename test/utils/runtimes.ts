import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { startRuntime } from '../../scripts/runtimes.mjs'
import type { RuntimeApp, RuntimeTarget } from '../../scripts/runtimes.mjs'
import { fixtureDir } from './fixture'

export type { RuntimeApp, RuntimeTarget } from '../../scripts/runtimes.mjs'

/**
 * Starts the built `runtime-<target>` fixture with its real runtime (Node, Bun, Deno, or workerd
 * through `wrangler dev`) on a loopback port of its own (Node and Deno bind port 0; Bun and workerd
 * get a free one, drawn again if taken); resolves once it answers HTTP.
 *
 * @example
 * ```ts
 * const app = await startRuntimeApp('bun', { NUXT_MCP_STATE_SECRET: secret })
 * ```
 */
export async function startRuntimeApp(target: RuntimeTarget, env: Record<string, string> = {}): Promise<RuntimeApp> {
  const root = fixtureDir(`runtime-${target}`)
  if (!existsSync(resolve(root, '.output/server/index.mjs'))) throw new Error(`runtime-${target} is not built: buildFixture('runtime-${target}') first.`)
  return startRuntime({ target, root, env })
}
