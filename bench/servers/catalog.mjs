// The four servers under test, each in two variants: "base" (echo + ask_form) for every
// measurement but the listing, "list" (500 tools) for tools/list. Nuxt apps are built here (or
// reused from bench/.work when --quick and nothing they are built from changed).
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { benchDir, repoRoot, workDir } from '../lib/paths.mjs'
import { appDirOf, buildApp, generateApp } from './nuxt-apps.mjs'
import { installPackedModule } from './packed-install.mjs'

export const SERVERS = [
  { id: 'us', label: 'nuxt-mcp-elicitation', describe: 'Nuxt 4 app built as a user builds it: the repo\'s npm pack tarball installed into a scratch app outside the repo, default config', kind: 'nuxt' },
  { id: 'v1', label: 'v1 SDK floor', describe: 'node:http + @modelcontextprotocol/sdk 1.32.2 Streamable HTTP transport, in-memory sessions (legacy only)', kind: 'node', script: 'servers/v1-floor.mjs' },
  { id: 'v2', label: 'v2 SDK floor', describe: 'node:http + @modelcontextprotocol/server 2.4.0: isLegacyRequest → sessionful WebStandardStreamableHTTPServerTransport, else createMcpHandler(factory, { legacy: \'reject\' })', kind: 'node', script: 'servers/v2-floor.mjs' },
  { id: 'v2m', label: 'v2 SDK floor, module-level schemas', describe: 'the v2 floor with its tools\' Zod schemas built once at module level instead of in the per-request factory (BENCH_SHAPES=module)', kind: 'node', script: 'servers/v2-floor.mjs', env: { BENCH_SHAPES: 'module' }, modernEchoOnly: true },
  { id: 'anchor', label: '@nuxtjs/mcp-toolkit 0.21.0', describe: 'same Nuxt app, sessions: true, nitro.experimental.asyncContext: true (legacy only: no 2026-07-28)', kind: 'nuxt' },
]
export const VARIANTS = ['base', 'list']
/** The `requestState` secret every build of ours runs with in the bench (a fixed one: cold starts stay comparable). */
export const STATE_SECRET = 'bench-state-secret-bench-state-secret-0123456789'

async function filesUnder(dir) {
  const out = []
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = resolve(dir, entry.name)
    if (entry.isDirectory()) out.push(...await filesUnder(path))
    else out.push(path)
  }
  return out.sort()
}

/** Hash of everything a Nuxt app's build depends on: src/, the generators, the lockfiles. */
async function buildInputsHash(id) {
  const hash = createHash('sha256').update(id)
  const files = [
    ...(id === 'us' ? [...await filesUnder(resolve(repoRoot, 'src')), resolve(repoRoot, 'package.json'), resolve(repoRoot, 'build.config.ts'), resolve(benchDir, 'servers/packed-install.mjs')] : []),
    resolve(benchDir, 'servers/nuxt-apps.mjs'),
    resolve(benchDir, 'lib/tools-spec.mjs'),
    resolve(repoRoot, 'package-lock.json'),
    resolve(benchDir, 'package-lock.json'),
  ]
  for (const file of files) if (existsSync(file)) hash.update(file).update(await readFile(file))
  return hash.digest('hex')
}

/**
 * Makes every server startable: builds the Nuxt apps (reusing a matching earlier build when
 * `reuse`). Returns { entries: {id: {variant: {entry, env}}}, builds: {id: {variant: info}}, skipped: {id: reason} }.
 */
export async function prepareServers({ reuse, log }) {
  const entries = {}
  const builds = {}
  const skipped = {}
  for (const server of SERVERS) {
    entries[server.id] = {}
    if (server.kind === 'node') {
      for (const variant of VARIANTS) entries[server.id][variant] = { entry: resolve(benchDir, server.script), env: { BENCH_VARIANT: variant, ...server.env } }
      continue
    }
    builds[server.id] = {}
    try {
      for (const variant of VARIANTS) {
        const dir = appDirOf(server.id, variant)
        const stamp = resolve(dir, '.bench-build.json')
        const hash = await buildInputsHash(server.id)
        let info
        if (reuse && existsSync(stamp)) {
          const previous = JSON.parse(await readFile(stamp, 'utf8'))
          if (previous.hash === hash && existsSync(previous.entry)) info = { ...previous, cached: true }
        }
        if (!info) {
          if (server.id === 'us') {
            log('  packing the module and installing the tarball into the scratch app (npm pack, npm install)…')
            await installPackedModule()
          }
          log(`  building ${server.id}-${variant} (nuxi build)…`)
          // The standalone tools in measure/ come here without run.mjs having made the folder.
          await mkdir(resolve(workDir, 'logs'), { recursive: true })
          await generateApp(server.id, variant)
          const built = await buildApp(dir, resolve(workDir, 'logs', `build-${server.id}-${variant}.log`))
          info = { hash, entry: built.entry, buildMs: built.buildMs, outputBytes: built.outputBytes }
          await writeFile(stamp, JSON.stringify(info))
        }
        log(`  ${server.id}-${variant}: build ${(info.buildMs / 1000).toFixed(1)} s${info.cached ? ' (cached from an earlier run)' : ''}, .output ${(info.outputBytes / 2 ** 20).toFixed(2)} MB`)
        builds[server.id][variant] = info
        // The memory runs open 1000 idle sessions from one loopback client: above the per-client cap (100).
        entries[server.id][variant] = { entry: info.entry, env: { NUXT_MCP_STATE_SECRET: STATE_SECRET, NUXT_MCP_SESSIONS_MAX_PER_PRINCIPAL: '1000' } }
      }
    }
    catch (error) {
      if (server.id === 'us') throw error
      skipped[server.id] = `build failed: ${error.message.split('\n')[0]}`
      log(`  SKIPPING ${server.id}: ${skipped[server.id]}`)
      delete entries[server.id]
    }
  }
  return { entries, builds, skipped }
}
