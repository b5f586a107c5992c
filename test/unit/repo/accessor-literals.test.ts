import { readdirSync, readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../../utils/fixture'

const SERVER = resolve(repoRoot, 'src/runtime/server')

/**
 * Object literals with a getter or setter that are built once, not per request, each with why it
 * must be an accessor. Everywhere else a per-request object gets its accessors from a class
 * prototype: V8 builds a literal's accessor as an old-generation pair that keeps the request
 * alive through every young-generation GC until the next full one (docs/architecture.md,
 * `transport/door/`; bench/measure/scavenge.mjs measures it).
 */
const BUILT_ONCE: Record<string, string> = {
  // Zod reads `defaultValue` on each parse, and each read must be a fresh copy; built once per cached field.
  'elicitation/schema/read.ts:defaultValue': 'a shared schema field',
  // The stdio streams a Worker's `process` shim refuses to hand out, built once at module load.
  'common/sdk-shims.ts:stdin': 'the process shim',
  'common/sdk-shims.ts:stdout': 'the process shim',
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(entry =>
    entry.isDirectory() ? filesUnder(resolve(dir, entry.name)) : entry.name.endsWith('.ts') ? [resolve(dir, entry.name)] : [])
}

/** `file:name` of every getter or setter written in an object literal. */
function accessorLiterals(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true)
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if ((ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) && ts.isObjectLiteralExpression(node.parent)) {
      found.push(`${relative(SERVER, file)}:${node.name.getText(source)}`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('per-request objects', () => {
  it('take their getters and setters from a class prototype, not an object literal', () => {
    const found = filesUnder(SERVER).flatMap(accessorLiterals)
    expect(found.filter(site => !(site in BUILT_ONCE)), 'make it a class with the accessor on its prototype (see RequestScope in transport/door/request-scope.ts)').toEqual([])
    // The allowance stays true: each one listed is still there.
    expect(Object.keys(BUILT_ONCE).filter(site => !found.includes(site))).toEqual([])
  })
})
