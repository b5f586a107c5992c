import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { declareVirtualModule, declareVirtualModules, standInFor, virtualId, WINGS } from '../../../src/build/virtual-modules'
import { repoRoot } from '../../utils/fixture'

// The one place the virtual modules are declared (src/build/virtual-modules.ts) and the one copy
// tsc reads for the module's own sources (test/types/virtual.d.ts) say the same, so a moved
// runtime file or a new module cannot leave one of them behind.
describe('the virtual modules', () => {
  const runtime = (file: string) => `../../src/runtime/${file}`

  it('are declared for the module\'s own type-check exactly as the app gets them', () => {
    const declared = readFileSync(resolve(repoRoot, 'test/types/virtual.d.ts'), 'utf8').split('\n').filter(line => !line.startsWith('//')).join('\n')
    expect(declared).toBe(declareVirtualModules(runtime))
  })

  it('name runtime files that exist', () => {
    const named = [...declareVirtualModules(file => `@@${file}@@`).matchAll(/@@([^@]+)@@/g)].map(match => match[1]!)
    expect(named.length).toBeGreaterThan(Object.keys(WINGS).length)
    const missing = named.filter(file => !['.ts', '.vue'].some(ext => existsSync(resolve(repoRoot, 'src/runtime', `${file}${ext}`))))
    expect(missing).toEqual([])
  })

  it('stand in for a wing left out with its one export, undefined', () => {
    expect(standInFor('tasks')).toBe('export const createTaskRuntime = undefined\n')
    expect(standInFor('otel')).toBe('export const otel = undefined\n')
    expect(virtualId('json-schema')).toBe('#mcp-elicitation/json-schema')
    expect(declareVirtualModule('bearer', runtime)).toBe(`declare module '#mcp-elicitation/bearer' {\n  export const createBearerCheck: typeof import('../../src/runtime/server/transport/oauth/bearer').createBearerCheck | undefined\n}\n`)
  })
})

// Every runtime path the build hands Nuxt is written `runtime('<path under src/runtime>')`: a string
// tsc does not check, so a moved runtime file would otherwise be found missing only by a fixture build.
describe('the runtime paths the build names', () => {
  const filesUnder = (dir: string): string[] => readdirSync(resolve(repoRoot, dir), { withFileTypes: true })
    .flatMap(entry => entry.isDirectory() ? filesUnder(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [])

  it('all exist', () => {
    const named = ['src/module.ts', ...filesUnder('src/build')].flatMap(file => [...readFileSync(resolve(repoRoot, file), 'utf8').matchAll(/\bruntime\((['`])([^'`$]+)\1\)/g)].map(match => `${file}: ${match[2]}`))
    expect(named.length).toBeGreaterThan(15)
    const missing = named.filter((entry) => {
      const path = entry.slice(entry.indexOf(': ') + 2)
      return !['', '.ts', '.vue'].some(ext => existsSync(resolve(repoRoot, 'src/runtime', `${path}${ext}`)))
    })
    expect(missing).toEqual([])
  })

  it('are all written that way: no runtime path resolved on its own', () => {
    const stray = ['src/module.ts', ...filesUnder('src/build')].filter(file => /resolve(?:Path)?\(['`]\.\/runtime\//.test(readFileSync(resolve(repoRoot, file), 'utf8').replace(/const runtime: RuntimePath = .*/, '')))
    expect(stray).toEqual([])
  })
})
