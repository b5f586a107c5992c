import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../../utils/fixture'

// docs/architecture.md is the map people work from. It is checked by folders and rules, not file
// names: every folder of src/ and test/e2e/ is in its code map and every name it gives exists, so
// the map and the tree cannot drift apart; and every rule it states names a test that checks it,
// whose title carries the rule's tag, so a rule nobody tests cannot stay on the page.

/** Where a name in the code map may be written from: the section's own folder first. */
const BASES = ['src/runtime/server', 'src/runtime', 'src', '.']

interface MapSection { heading: string, base: string | undefined, names: string[] }

/** The `### ` / `#### ` sections of the "Code map" part, each with the folder its heading names and the path-like names in it. */
function readCodeMap(markdown: string): MapSection[] {
  const start = markdown.indexOf('\n## Code map')
  const end = markdown.indexOf('\n## ', start + 1)
  if (start < 0) throw new Error('docs/architecture.md has no "## Code map" section')
  const part = markdown.slice(start, end < 0 ? undefined : end)
  return part.split(/\n#{3,4} /).slice(1).map((text) => {
    const heading = text.slice(0, text.indexOf('\n'))
    const names = [...text.matchAll(/`([^`\s]+)`/g)].map(match => match[1]!).filter(isPathLike)
    const folder = /^`([^`]+\/)`/.exec(heading)?.[1]
    return { heading, base: folder, names }
  })
}

/** A file with a known extension, or a folder written with its trailing slash. */
function isPathLike(name: string): boolean {
  return /^[\w.\-/]+\.(?:ts|mts|mjs|vue|css|md)$/.test(name) || /^[\w.\-]+\/(?:[\w.\-]+\/)*$/.test(name)
}

/** The section's folder and each folder above it (a room names its sibling as `door/…`), then the roots. */
function basesOf(base: string | undefined): string[] {
  const ancestors: string[] = []
  for (let folder = base; folder && folder !== '.'; folder = dirname(folder)) ancestors.push(folder)
  return [...BASES.flatMap(root => ancestors.map(folder => join(root, folder))), ...BASES]
}

function locate(name: string, base: string | undefined): string | undefined {
  const bases = basesOf(base)
  for (const root of bases) {
    const path = resolve(repoRoot, root, name)
    if (existsSync(path)) return relative(repoRoot, path)
  }
  return undefined
}

function foldersUnder(dir: string): string[] {
  return readdirSync(resolve(repoRoot, dir)).flatMap((name) => {
    const path = join(dir, name)
    return statSync(resolve(repoRoot, path)).isDirectory() ? [path, ...foldersUnder(path)] : []
  })
}

/** A rule of the "## Rules" part: `- **[tag]** text (`test file`)`. */
interface MapRule { tag: string, tests: string[] }

function readRules(markdown: string): MapRule[] {
  const start = markdown.indexOf('\n## Rules')
  if (start < 0) throw new Error('docs/architecture.md has no "## Rules" section')
  const end = markdown.indexOf('\n## ', start + 1)
  const part = markdown.slice(start, end < 0 ? undefined : end)
  return part.split(/\n- /).slice(1).map((text) => {
    const tag = /^\*\*\[([\w-]+)\]\*\*/.exec(text)?.[1]
    if (!tag) throw new Error(`a rule of docs/architecture.md does not start with its **[tag]**: "${text.slice(0, 60)}…"`)
    return { tag, tests: [...text.matchAll(/`(test\/[^`]+\.test\.ts)`/g)].map(match => match[1]!) }
  })
}

describe('docs/architecture.md matches the tree', () => {
  const markdown = readFileSync(resolve(repoRoot, 'docs/architecture.md'), 'utf8')
  const sections = readCodeMap(markdown)

  it('[map] names only files and folders that exist', () => {
    expect(sections.length).toBeGreaterThan(8)
    const missing = sections.flatMap(section => section.names.filter(name => !locate(name, section.base)).map(name => `${section.heading}: ${name}`))
    expect(missing).toEqual([])
  })

  it('[map] names every folder of src/ and test/e2e/', () => {
    const named = new Set(sections.flatMap(section => section.names.map(name => locate(name, section.base)).filter(path => path !== undefined)))
    const unnamed = [...foldersUnder('src'), ...foldersUnder('test/e2e')].filter(folder => !named.has(folder))
    expect(unnamed).toEqual([])
  })

  it('[map] stays a map: at most 150 lines', () => {
    expect(markdown.trimEnd().split('\n').length).toBeLessThanOrEqual(150)
  })

  it('[map] names, for every rule it states, a test whose title carries the rule\'s tag', () => {
    const rules = readRules(markdown)
    expect(rules.length).toBeGreaterThan(5)
    const untested = rules.flatMap(({ tag, tests }) => {
      if (tests.length === 0) return [`[${tag}] names no test`]
      return tests.filter(test => !existsSync(resolve(repoRoot, test)) || !readFileSync(resolve(repoRoot, test), 'utf8').includes(`'[${tag}]`)).map(test => `[${tag}] is not the start of a test title in ${test}`)
    })
    expect(untested).toEqual([])
  })
})
