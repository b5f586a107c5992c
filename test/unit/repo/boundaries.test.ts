import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../../utils/fixture'

// The rules of docs/architecture.md that are about what a folder may reach outside the repo's
// own files (h3, Nitro) or across the run-time/build-time line: read from the syntax tree, so a
// comment or a string that looks like an import does not count.

/** Every `.ts` source under `dir` (relative to the repo), declaration files left out. */
function sourcesUnder(dir: string): string[] {
  return readdirSync(resolve(repoRoot, dir)).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(resolve(repoRoot, path)).isDirectory()) return sourcesUnder(path)
    return /\.(?:ts|mts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

interface ModuleUse { file: string, line: number, specifier: string, typeOnly: boolean, declares: boolean }

/** Each import, re-export and `declare module` of `file`, and whether it brings values or types only. */
function readModuleUses(file: string): ModuleUse[] {
  const source = ts.createSourceFile(file, readFileSync(resolve(repoRoot, file), 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const uses: ModuleUse[] = []
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause
      const typeOnly = clause !== undefined && (clause.isTypeOnly || (!clause.name && clause.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every(element => element.isTypeOnly)))
      uses.push({ file, line: lineOf(node), specifier: node.moduleSpecifier.text, typeOnly, declares: false })
    }
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      uses.push({ file, line: lineOf(node), specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly, declares: false })
    }
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      uses.push({ file, line: lineOf(node), specifier: node.arguments[0].text, typeOnly: false, declares: false })
    }
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      uses.push({ file, line: lineOf(node), specifier: node.argument.literal.text, typeOnly: true, declares: false })
    }
    else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) {
      uses.push({ file, line: lineOf(node), specifier: node.name.text, typeOnly: true, declares: true })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return uses
}

const SERVER = 'src/runtime/server'
/** The entry points: the only files that know Nitro. */
const isEntryPoint = (file: string) => /^src\/runtime\/server\/(?:routes\/|plugins\/|[^/]+\.ts$)/.test(file)
const isDoor = (file: string) => file.startsWith(`${SERVER}/transport/door/`)
const describeUse = (use: ModuleUse) => `${use.file}:${use.line} ${use.declares ? 'declares' : 'imports'} ${use.specifier}`

describe('the boundaries docs/architecture.md draws', () => {
  const server = sourcesUnder(SERVER).flatMap(readModuleUses)

  it('[h3-at-door] imports values from h3 only at the door and in the entry points (elsewhere H3Event is a type)', () => {
    expect(server.some(use => use.specifier === 'h3' && use.typeOnly && !isDoor(use.file))).toBe(true)
    const found = server.filter(use => use.specifier === 'h3' && !use.typeOnly && !isDoor(use.file) && !isEntryPoint(use.file))
    expect(found.map(describeUse)).toEqual([])
  })

  it('[view-apart] keeps in-view code apart from the server runtime', () => {
    const found = sourcesUnder('src/runtime/view').flatMap(readModuleUses).filter(use => /(?:^|\/)server\//.test(use.specifier))
    expect(found.map(describeUse)).toEqual([])
  })

  it('[view-apart] lets the host reach the server runtime\'s common/ and cluster/ only, and the chat its common/ only', () => {
    const reach = (folder: string, allowed: RegExp) => sourcesUnder(folder).flatMap(readModuleUses)
      .filter(use => use.specifier.startsWith('.'))
      .filter((use) => {
        const target = relative(repoRoot, resolve(repoRoot, use.file, '..', use.specifier))
        return target.startsWith(`${SERVER}/`) && !allowed.test(target.slice(SERVER.length + 1))
      })
      .map(describeUse)
    expect(sourcesUnder('src/runtime/host').flatMap(readModuleUses).some(use => use.specifier.includes('server/cluster/'))).toBe(true)
    expect(reach('src/runtime/host', /^(?:common|cluster)\//)).toEqual([])
    expect(reach('src/runtime/chat', /^common\//)).toEqual([])
  })

  it('[view-apart] lets only the server\'s page/ reach the chat, and only its elicitation/ (the form\'s logic without Vue)', () => {
    const reachChat = (use: ModuleUse) => use.specifier.startsWith('.') && relative(repoRoot, resolve(repoRoot, use.file, '..', use.specifier)).startsWith('src/runtime/chat/')
    const target = (use: ModuleUse) => relative(repoRoot, resolve(repoRoot, use.file, '..', use.specifier))
    const fromPage = server.filter(use => use.file.startsWith(`${SERVER}/page/`) && reachChat(use))
    expect(fromPage.length).toBeGreaterThan(0)
    expect(fromPage.filter(use => !target(use).startsWith('src/runtime/chat/elicitation/')).map(describeUse)).toEqual([])
    expect(server.filter(use => !use.file.startsWith(`${SERVER}/page/`) && reachChat(use)).map(describeUse)).toEqual([])
    // What page/ reaches of the chat stands on no Vue: the server renders the page without it.
    const chatLogic = sourcesUnder('src/runtime/chat/elicitation').flatMap(readModuleUses)
    expect(chatLogic.filter(use => /^(?:vue|@vue\/|nuxt|#app|#imports)/.test(use.specifier)).map(describeUse)).toEqual([])
  })

  it('[view-apart] never imports build time from run time', () => {
    const targetOf = (use: ModuleUse) => relative(repoRoot, resolve(repoRoot, use.file, '..', use.specifier))
    const found = sourcesUnder('src/runtime').flatMap(readModuleUses).filter(use => use.specifier.startsWith('.') && targetOf(use).startsWith('src/') && !targetOf(use).startsWith('src/runtime/'))
    expect(found.map(describeUse)).toEqual([])
  })
})
