import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findCircles, findWrongWayImports, findUninvitedImports, readImportGraph, readSpecifiers, wingOf } from '../../utils/import-graph'
import type { Wing } from '../../utils/import-graph'
import { repoRoot } from '../../utils/fixture'

/**
 * The wings of the server runtime (docs/architecture.md, "Code map"), and the rooms of the
 * transport wing. A file may import its own wing or a wing of lower rank, never one of higher
 * rank; type-only imports count too. A file in no wing fails the test (a file at the root of
 * `transport/` too): a new folder is placed here, in the same commit as the map.
 */
const WINGS: Wing[] = [
  { name: 'common ground', prefix: 'common/', rank: 0 },
  // What crosses instances (Redis, the mailbox): just above the ground, below everything that
  // speaks MCP, so a message between instances is a message and nothing more.
  { name: 'cluster', prefix: 'cluster/', rank: 0.5 },
  { name: 'the elicitation error', prefix: 'elicitation/error.ts', rank: 1 },
  { name: 'schema', prefix: 'elicitation/schema/', rank: 2 },
  { name: 'elicitation', prefix: 'elicitation/', rank: 3 },
  // The rooms of the tasks and mcp wings, from the ground up: what a task is and where it is kept
  // knows nothing of MCP's server; caching, observing and views are what a definition may carry
  // or what watches a call; the definitions are read into the registry; a call run as a task uses
  // them; the server (factory, handlers, lists, subscriptions, sessions) puts it all together.
  { name: 'tasks: store', prefix: 'tasks/store/', rank: 3.5 },
  { name: 'mcp: caching', prefix: 'mcp/caching/', rank: 4 },
  { name: 'mcp: observing', prefix: 'mcp/observing/', rank: 4.1 },
  { name: 'mcp: views', prefix: 'mcp/views/', rank: 4.2 },
  // The skills as entries, resources and directories: plain data the registry and the server read.
  { name: 'mcp: skills', prefix: 'mcp/skills/', rank: 4.25 },
  { name: 'mcp: definitions', prefix: 'mcp/definitions/', rank: 4.3 },
  // A view's own tool is a definition the build writes for a view: it stands on the registry.
  { name: 'mcp: a view\'s tool', prefix: 'mcp/views/view-tools.ts', rank: 4.35 },
  { name: 'tasks: calls', prefix: 'tasks/calls/', rank: 4.4 },
  { name: 'mcp: server', prefix: 'mcp/server/', rank: 4.5 },
  // The transport wing's rooms, from the ground up: the door calls sessions, which use the shared
  // mode, which relays one session's streams; all of them answer with the http ground's errors.
  { name: 'transport: http', prefix: 'transport/http/', rank: 5 },
  { name: 'transport: oauth', prefix: 'transport/oauth/', rank: 5.1 },
  { name: 'transport: streams', prefix: 'transport/streams/', rank: 5.2 },
  { name: 'transport: shared', prefix: 'transport/shared/', rank: 5.3 },
  { name: 'transport: sessions', prefix: 'transport/sessions/', rank: 5.4 },
  { name: 'transport: door', prefix: 'transport/door/', rank: 5.5 },
  // The question page (issue 50): a door for people, as pure functions the page's route calls.
  { name: 'page', prefix: 'page/', rank: 5.8 },
  { name: 'devtools', prefix: 'devtools/', rank: 6 },
  { name: 'entry points', prefix: 'routes/', rank: 7 },
  { name: 'entry points', prefix: 'plugins/', rank: 7 },
  { name: 'entry points', prefix: 'use-endpoint.ts', rank: 7 },
  { name: 'entry points', prefix: 'hooks.ts', rank: 7 },
  { name: 'entry points', prefix: 'index.ts', rank: 7 },
]

/**
 * Wings that only some wings may import, whatever the ranks say: a token is judged at the door
 * (and its metadata served by an entry point), so no session, stream or relay knows OAuth.
 */
const REACHED_ONLY_FROM: Record<string, string[]> = {
  'transport: oauth': ['transport: door', 'entry points'],
}

describe('the server runtime keeps its shape', () => {
  const graph = readImportGraph(resolve(repoRoot, 'src/runtime/server'))

  it('places every file in a wing', () => {
    expect(graph.size).toBeGreaterThan(40)
    for (const file of graph.keys()) expect(() => wingOf(file, WINGS), file).not.toThrow()
  })

  it('[one-way] has no import against the direction', () => {
    expect(findWrongWayImports(graph, WINGS)).toEqual([])
  })

  it('[one-way] has no import circle', () => {
    expect(findCircles(graph)).toEqual([])
  })

  it('[oauth-at-door] reaches OAuth from the door only', () => {
    expect(findUninvitedImports(graph, WINGS, REACHED_ONLY_FROM)).toEqual([])
  })

  it('[cluster-knows-no-mcp] keeps the cluster wing ignorant of MCP: no import of mcp/, tasks/, elicitation/ or transport/', () => {
    const found = [...graph.values()].flat()
      .filter(edge => edge.from.startsWith('cluster/') && /^(?:mcp|tasks|elicitation|transport)\//.test(edge.to))
      .map(edge => `${edge.from}:${edge.line} imports "${edge.specifier}"`)
    expect(found).toEqual([])
  })

  it('[neutral-runtime] keeps Node built-ins out of the runtime-neutral wings (Workers run them without nodejs_compat)', () => {
    // AsyncLocalStorage is the one exception: native where the runtime has it, and the module does
    // not depend on it following every await (docs/deploy/cloudflare-workers.md).
    const allowed = new Set(['common/context.ts:node:async_hooks', 'elicitation/run.ts:node:async_hooks'])
    const root = resolve(repoRoot, 'src/runtime/server')
    const found: string[] = []
    for (const file of graph.keys()) {
      if (!/^(?:common|cluster|mcp|tasks|elicitation|page)\//.test(file)) continue
      for (const { specifier, line } of readSpecifiers(file, readFileSync(resolve(root, file), 'utf8'))) {
        if (specifier.startsWith('node:') && !allowed.has(`${file}:${specifier}`)) found.push(`${file}:${line} imports ${specifier}`)
      }
    }
    expect(found).toEqual([])
  })

  it('[nitro-at-entry] knows Nitro in the entry points only, and declares every hook of the module in hooks.ts', () => {
    const root = resolve(repoRoot, 'src/runtime/server')
    const found: string[] = []
    for (const file of graph.keys()) {
      if (wingOf(file, WINGS).name === 'entry points') continue
      for (const { specifier, line } of readSpecifiers(file, readFileSync(resolve(root, file), 'utf8'))) {
        if (specifier === 'nitropack' || specifier.startsWith('nitropack/')) found.push(`${file}:${line} imports ${specifier}`)
      }
    }
    // Every runtime (the server's and the host's): one file says which hooks an app may listen to.
    const runtime = resolve(repoRoot, 'src/runtime')
    const declaring = readdirSync(runtime, { recursive: true, encoding: 'utf8' })
      .filter(file => /\.(?:ts|mts)$/.test(file) && /declare module ['"]nitropack/.test(readFileSync(resolve(runtime, file), 'utf8')))
    expect(found).toEqual([])
    expect(declaring).toEqual(['server/hooks.ts'])
  })
})

describe('the import-rule checker', () => {
  it('finds every kind of import, and none in comments or strings', () => {
    const source = [
      `import {\n  a,\n  b,\n} from './multi'`,
      `import type { T } from './type-only'`,
      `import './side-effect'`,
      `export { c } from './re-export'`,
      `export * from './star'`,
      `import x = require('./required')`,
      `const lazy = () => import('./dynamic')`,
      `type U = import('./import-type').U`,
      `// import { no } from './comment'`,
      `/* export { no } from './block-comment' */`,
      `const s = "import no from './string'"`,
    ].join('\n')
    expect(readSpecifiers('example.ts', source).map(found => found.specifier)).toEqual([
      './multi',
      './type-only',
      './side-effect',
      './re-export',
      './star',
      './required',
      './dynamic',
      './import-type',
    ])
  })

  it('fails on a tree that breaks the rules, naming each wrong import and each circle', () => {
    const graph = readImportGraph(resolve(repoRoot, 'test/fixtures/import-rules'))
    expect(findWrongWayImports(graph, WINGS).sort()).toEqual([
      'elicitation/ask.ts:4 (elicitation) imports "../devtools/recorder" (devtools): against the direction',
      'elicitation/engine.ts:3 (elicitation) imports "../mcp/server/handlers" (mcp: server): against the direction',
      'elicitation/schema/fields.ts:3 (schema) imports "../run" (elicitation): against the direction',
      'mcp/server/handlers.ts:3 (mcp: server) imports "../../transport/door/endpoint" (transport: door): against the direction',
      'mcp/server/handlers.ts:4 (mcp: server) imports "../../transport/door/endpoint" (transport: door): against the direction',
      'transport/streams/sse.ts:2 (transport: streams) imports "../sessions/table" (transport: sessions): against the direction',
    ])
    expect(findCircles(graph)).toEqual([
      'mcp/server/handlers.ts → transport/door/endpoint.ts → mcp/server/handlers.ts',
      'mcp/server/a.ts → mcp/server/b.ts → mcp/server/a.ts',
    ])
    expect(findUninvitedImports(graph, WINGS, REACHED_ONLY_FROM)).toEqual([
      'transport/sessions/owner.ts:2 (transport: sessions) imports "../oauth/bearer" (transport: oauth), which only transport: door, entry points may import',
    ])
  })

  it('refuses a file that belongs to no wing, or to no room of the transport, mcp or tasks wing', () => {
    expect(() => wingOf('stray.ts', WINGS)).toThrow(/stray\.ts belongs to no wing/)
    expect(() => wingOf('transport/stray.ts', WINGS)).toThrow(/transport\/stray\.ts belongs to no wing/)
    expect(() => wingOf('mcp/stray.ts', WINGS)).toThrow(/mcp\/stray\.ts belongs to no wing/)
    expect(() => wingOf('tasks/stray.ts', WINGS)).toThrow(/tasks\/stray\.ts belongs to no wing/)
  })
})
