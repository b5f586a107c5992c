/**
 * Every ```ts block of README.md and docs/*.md is type-checked as a file of a Nuxt app, so the docs
 * cannot drift from the code. Each block is written to test/docs/.generated/ and compiled, in one
 * TypeScript program, with test/docs/prelude.d.ts: the module's and Nitro's auto-imports, typed
 * from their real sources, and a short list of app helpers the docs assume.
 *
 * A ts block opts out only with `// docs-test: skip (reason)` on its first line.
 * Blocks in other languages (json, bash, http, text…) are not code of this module and are ignored,
 * but every opening fence must name its language, so an untagged TypeScript block cannot slip by.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { beforeAll, describe, expect, it } from 'vitest'
import { repoRoot } from '../../utils/fixture'

const ROOT = repoRoot
const DOCS_DIR = join(ROOT, 'test/docs')
const GENERATED_DIR = join(DOCS_DIR, '.generated')
const PRELUDE = join(DOCS_DIR, 'prelude.d.ts')

/** How many ts blocks the docs held when this test was written: deleting samples must be noticed. */
const MIN_CHECKED_BLOCKS = 34

const TS_LANGUAGES = new Set(['ts', 'typescript'])
const SKIP_MARKER = /^\s*\/\/\s*docs-test:\s*skip\s*\((.+)\)\s*$/

interface Block {
  /** Markdown file, relative to the repo root (`docs/elicitation.md`). */
  file: string
  /** 1-based line of the block's first code line in the markdown file. */
  line: number
  /** The fence's indentation, stripped from every code line. */
  indent: number
  code: string
}

interface Fence {
  file: string
  line: number
  language: string
}

function markdownFiles(): string[] {
  const inFolder = (folder: string) => readdirSync(join(ROOT, folder)).filter(name => name.endsWith('.md')).sort().map(name => `${folder}/${name}`)
  return ['README.md', ...inFolder('docs'), ...inFolder('docs/deploy')]
}

/** Every fenced block of one markdown file (``` or ~~~, indented ones included). */
function readFences(file: string): { fences: Fence[], blocks: Block[] } {
  const lines = readFileSync(join(ROOT, file), 'utf8').split(/\r?\n/)
  const fences: Fence[] = []
  const blocks: Block[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)(`{3,}|~{3,})\s*([^\s`{]*)/.exec(lines[i] ?? '')
    if (!open) continue
    const indent = open[1]!.length
    const marker = open[2]!
    const language = open[3]!.toLowerCase()
    const closing = new RegExp(`^ *${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`)
    const code: string[] = []
    let j = i + 1
    for (; j < lines.length && !closing.test(lines[j] ?? ''); j++) {
      const text = lines[j] ?? ''
      code.push(text.slice(Math.min(indent, text.length - text.trimStart().length)))
    }
    fences.push({ file, line: i + 1, language })
    if (TS_LANGUAGES.has(language)) blocks.push({ file, line: i + 2, indent, code: code.join('\n') })
    i = j
  }
  return { fences, blocks }
}

const FILES = markdownFiles()
const FENCES = FILES.flatMap(file => readFences(file).fences)
const ALL_BLOCKS = FILES.flatMap(file => readFences(file).blocks)
const SKIPPED = ALL_BLOCKS.filter(block => SKIP_MARKER.test(block.code.split('\n')[0] ?? ''))
const CHECKED = ALL_BLOCKS.filter(block => !SKIPPED.includes(block))

function generatedPath(block: Block): string {
  return join(GENERATED_DIR, `${block.file.replace(/[/\\]/g, '__')}__L${block.line}.ts`)
}

function compilerOptions(): ts.CompilerOptions {
  return {
    // What Nuxt 4 generates in .nuxt/tsconfig.server.json.
    strict: true,
    noUncheckedIndexedAccess: true,
    target: ts.ScriptTarget.ESNext,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    moduleDetection: ts.ModuleDetectionKind.Force,
    lib: ['lib.esnext.d.ts', 'lib.webworker.d.ts', 'lib.dom.iterable.d.ts'],
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules/@types')],
    skipLibCheck: true,
    noEmit: true,
    resolveJsonModule: true,
    allowSyntheticDefaultImports: true,
    esModuleInterop: true,
    forceConsistentCasingInFileNames: true,
    paths: {
      'nuxt-mcp-elicitation/runtime': [join(ROOT, 'src/runtime/server/index.ts')],
      'nuxt-mcp-elicitation/testing': [join(ROOT, 'src/testing/index.ts')],
    },
  }
}

function format(diagnostic: ts.Diagnostic, where: (d: ts.Diagnostic) => string): string {
  return `${where(diagnostic)}: error TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n    ')}`
}

function diagnosticsOf(program: ts.Program, sourceFile: ts.SourceFile): ts.Diagnostic[] {
  return [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)]
    .filter(diagnostic => diagnostic.category === ts.DiagnosticCategory.Error)
}

/** Compiler errors per markdown file, as `docs/x.md:123: error TS2345: …`; `''` for the prelude. */
let errors: Map<string, string[]>

beforeAll(() => {
  rmSync(GENERATED_DIR, { recursive: true, force: true })
  mkdirSync(GENERATED_DIR, { recursive: true })
  const byPath = new Map<string, Block>()
  for (const block of CHECKED) {
    const path = generatedPath(block)
    writeFileSync(path, `${block.code}\n`)
    byPath.set(path, block)
  }

  const program = ts.createProgram({ rootNames: [PRELUDE, ...byPath.keys()], options: compilerOptions() })
  errors = new Map(FILES.map(file => [file, []]))
  errors.set('', [])

  const global = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()]
  const prelude = program.getSourceFile(PRELUDE)
  if (prelude) global.push(...diagnosticsOf(program, prelude))
  else global.push({ category: ts.DiagnosticCategory.Error, code: 6053, file: undefined, start: undefined, length: undefined, messageText: `${PRELUDE} was not loaded` })
  errors.get('')!.push(...global.map(diagnostic => format(diagnostic, d => {
    if (!d.file || d.start === undefined) return relative(ROOT, PRELUDE)
    const { line } = d.file.getLineAndCharacterOfPosition(d.start)
    return `${relative(ROOT, d.file.fileName)}:${line + 1}`
  })))

  for (const [path, block] of byPath) {
    const sourceFile = program.getSourceFile(path)
    const messages = errors.get(block.file)!
    if (!sourceFile) {
      messages.push(`${block.file}:${block.line}: the generated file ${relative(ROOT, path)} was not loaded`)
      continue
    }
    for (const diagnostic of diagnosticsOf(program, sourceFile)) {
      messages.push(format(diagnostic, (d) => {
        // A diagnostic of a generated file maps line for line onto the markdown.
        if (d.file === sourceFile && d.start !== undefined) {
          const { line, character } = sourceFile.getLineAndCharacterOfPosition(d.start)
          return `${block.file}:${block.line + line}:${character + 1 + block.indent}`
        }
        return `${block.file}:${block.line}`
      }))
    }
  }
}, 120_000)

describe('docs code samples', () => {
  it('every opening fence names its language', () => {
    const untagged = FENCES.filter(fence => fence.language === '').map(fence => `${fence.file}:${fence.line}`)
    expect(untagged, 'Tag each block: ```ts for code this test compiles, else ```json, ```bash, ```text…').toEqual([])
  })

  it(`at least ${MIN_CHECKED_BLOCKS} ts blocks are compiled`, () => {
    const perFile = FILES.map(file => `${file}: ${CHECKED.filter(block => block.file === file).length}`).join(', ')
    expect(CHECKED.length, `ts blocks compiled (${perFile}); skipped: ${SKIPPED.map(b => `${b.file}:${b.line}`).join(', ') || 'none'}`)
      .toBeGreaterThanOrEqual(MIN_CHECKED_BLOCKS)
  })

  it('test/docs/prelude.d.ts compiles', () => {
    expect(errors.get('')!.join('\n')).toBe('')
  })

  it('every app helper the prelude declares is used by a sample', () => {
    const helpers = [...readFileSync(PRELUDE, 'utf8').matchAll(/^\s*function (\w+)\(/gm)].map(match => match[1]!)
    expect(helpers.length).toBeGreaterThan(0)
    const unused = helpers.filter(name => !CHECKED.some(block => new RegExp(`\\b${name}\\(`).test(block.code)))
    expect(unused, 'Remove these from test/docs/prelude.d.ts').toEqual([])
  })

  for (const file of FILES) {
    const count = CHECKED.filter(block => block.file === file).length
    it(`${file}: its ${count} ts block${count === 1 ? '' : 's'} compile`, () => {
      expect(errors.get(file)!.join('\n')).toBe('')
    })
  }
})
