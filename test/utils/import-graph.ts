import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'

/** One import of one file, as written (`specifier`) and as resolved (`to`, relative to the root). */
export interface ImportEdge {
  from: string
  to: string
  specifier: string
  line: number
}

/**
 * Every module specifier a TypeScript source names, from the syntax tree (so comments and
 * strings that look like imports do not count): `import`, `import type`, `export … from`,
 * `import x = require()`, `import()` calls and `import('…').T` type references.
 */
export function readSpecifiers(fileName: string, source: string): { specifier: string, line: number }[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const found: { specifier: string, line: number }[] = []
  const add = (node: ts.Node | undefined) => {
    if (node && ts.isStringLiteralLike(node)) found.push({ specifier: node.text, line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1 })
  }
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier)
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node.moduleReference.expression)
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0])
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal)
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}

function listSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return listSources(path)
    return /\.(?:ts|mts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

function resolveRelative(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier)
  for (const candidate of [base, `${base}.ts`, `${base}.mts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate
  }
  return undefined
}

const toPosix = (path: string) => path.split(sep).join('/')

/**
 * The import graph of the sources under `root`: each file's relative imports that resolve to a
 * file under `root` (packages, virtual modules and files outside are not edges).
 */
export function readImportGraph(root: string): Map<string, ImportEdge[]> {
  const graph = new Map<string, ImportEdge[]>()
  for (const file of listSources(root)) {
    const from = toPosix(relative(root, file))
    const edges: ImportEdge[] = []
    for (const { specifier, line } of readSpecifiers(file, readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue
      const target = resolveRelative(file, specifier)
      if (!target) throw new Error(`${from}:${line}: "${specifier}" resolves to no file`)
      const to = toPosix(relative(root, target))
      if (!to.startsWith('..')) edges.push({ from, to, specifier, line })
    }
    graph.set(from, edges)
  }
  return graph
}

/** A wing: the files whose path starts with `prefix` (longest prefix wins); `rank` orders wings. */
export interface Wing {
  name: string
  prefix: string
  rank: number
}

/** The wing of `file`: the wing with the longest matching prefix. */
export function wingOf(file: string, wings: Wing[]): Wing {
  const matches = wings.filter(wing => file.startsWith(wing.prefix)).sort((a, b) => b.prefix.length - a.prefix.length)
  if (!matches[0]) throw new Error(`${file} belongs to no wing: add it to the wing table`)
  return matches[0]
}

/** Every import that points from a wing to a wing of higher rank (against the direction). */
export function findWrongWayImports(graph: Map<string, ImportEdge[]>, wings: Wing[]): string[] {
  const problems: string[] = []
  for (const edges of graph.values()) {
    for (const edge of edges) {
      const from = wingOf(edge.from, wings)
      const to = wingOf(edge.to, wings)
      if (to.rank > from.rank) problems.push(`${edge.from}:${edge.line} (${from.name}) imports "${edge.specifier}" (${to.name}): against the direction`)
    }
  }
  return problems
}

/**
 * Every import into a wing that `reachedOnlyFrom` keeps for some wings (by name) from a file of
 * another wing, whatever the ranks allow.
 */
export function findUninvitedImports(graph: Map<string, ImportEdge[]>, wings: Wing[], reachedOnlyFrom: Record<string, string[]>): string[] {
  const problems: string[] = []
  for (const edges of graph.values()) {
    for (const edge of edges) {
      const from = wingOf(edge.from, wings)
      const to = wingOf(edge.to, wings)
      const invited = reachedOnlyFrom[to.name]
      if (invited && from.name !== to.name && !invited.includes(from.name)) problems.push(`${edge.from}:${edge.line} (${from.name}) imports "${edge.specifier}" (${to.name}), which only ${invited.join(', ')} may import`)
    }
  }
  return problems
}

/** Every import circle, each as the files along it (`a → b → a`), found once. */
export function findCircles(graph: Map<string, ImportEdge[]>): string[] {
  const circles: string[] = []
  const done = new Set<string>()
  const onPath: string[] = []
  const visit = (file: string): void => {
    const at = onPath.indexOf(file)
    if (at >= 0) {
      circles.push([...onPath.slice(at), file].join(' → '))
      return
    }
    if (done.has(file)) return
    onPath.push(file)
    for (const edge of graph.get(file) ?? []) visit(edge.to)
    onPath.pop()
    done.add(file)
  }
  for (const file of [...graph.keys()].sort()) visit(file)
  return circles
}
