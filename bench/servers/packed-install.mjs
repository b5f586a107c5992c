// `us` as a user gets it: `npm pack` of the repo (its prepack script is the module build), the
// tarball installed with Nuxt and Zod into a scratch folder outside the repo, so nothing resolves
// through the repo's own node_modules or src/. The bench's `us` apps live below that folder and
// use its node_modules. (The runtime and several-instances phases still build from src/.)
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { envWithNode } from '../../scripts/node-runtime.mjs'
import { repoRoot } from '../lib/paths.mjs'

const run = promisify(execFile)

/** The scratch folder: its package.json, node_modules and the `us` apps below it. */
export const packedRoot = join(tmpdir(), 'nuxt-mcp-elicitation-bench')

/** The user's shell: without what `npm run` adds (npm_*), so the install is a plain one. */
function userEnv() {
  const env = {}
  for (const [key, value] of Object.entries(process.env)) if (!/^(?:npm_|NODE_ENV$)/.test(key)) env[key] = value
  return envWithNode(process.execPath, env)
}

async function runLogged(file, args, cwd, timeout = 300_000) {
  try {
    const { stdout, stderr } = await run(file, args, { cwd, env: userEnv(), maxBuffer: 64 * 1024 * 1024, timeout })
    return `${stdout}\n${stderr}`
  }
  catch (error) {
    throw new Error(`${file} ${args.join(' ')} failed in ${cwd}:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`)
  }
}

let installing

/**
 * Packs the repo and installs the tarball (with the Nuxt and Zod versions the repo tests with)
 * into `packedRoot`, once per bench process. Resolves with the install's log.
 */
export function installPackedModule() {
  installing ??= (async () => {
    const pack = join(packedRoot, 'pack')
    await rm(pack, { recursive: true, force: true })
    await mkdir(pack, { recursive: true })
    let log = await runLogged('npm', ['pack', '--pack-destination', pack], repoRoot)
    const tarball = (await readdir(pack)).find(name => name.endsWith('.tgz'))
    if (!tarball) throw new Error(`npm pack left no tarball in ${pack}:\n${log}`)
    const rootPackage = JSON.parse(readFileSync(resolve(repoRoot, 'package.json'), 'utf8'))
    await writeFile(join(packedRoot, 'package.json'), JSON.stringify({
      name: 'bench-scratch-app',
      private: true,
      type: 'module',
      dependencies: {
        'nuxt-mcp-elicitation': `file:${join(pack, tarball)}`,
        'nuxt': rootPackage.devDependencies.nuxt,
        'zod': rootPackage.devDependencies.zod,
      },
    }, null, 2))
    // A tarball of the same version with other contents: npm must not keep the old copy.
    await rm(join(packedRoot, 'node_modules/nuxt-mcp-elicitation'), { recursive: true, force: true })
    await rm(join(packedRoot, 'package-lock.json'), { force: true })
    log += await runLogged('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=warn'], packedRoot)
    if (!existsSync(join(packedRoot, 'node_modules/nuxt-mcp-elicitation/dist/module.mjs'))) throw new Error(`the packed module is not installed in ${packedRoot}:\n${log}`)
    return log
  })()
  return installing
}

/** The scratch app's own Nuxt CLI (what its `npm run build` would run). */
export const packedNuxi = join(packedRoot, 'node_modules/@nuxt/cli/bin/nuxi.mjs')
