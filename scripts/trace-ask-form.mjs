#!/usr/bin/env node
// `node scripts/trace-ask-form.mjs [--json] [--max-entries N]`: the functions one `askForm` call
// runs through, by file (issue 49, item 6).
//
// Every function in `src/` is instrumented when it is loaded (a TypeScript transform puts a
// `trace(file, name)` call at the top of each function, method, accessor and arrow), so the
// sequence is exact and the same on every run: no sampling. Files under node_modules (Zod, the
// SDK) run as they are; a call from them back into ours (a getter Zod reads) counts as an entry.
//
// One legacy `askForm` call per case, each answered by a client stub that accepts at once:
// - zod: an inline Zod 4 shape of six fields, asked twice (cold caches, then a new inline shape
//   of the same structure: the path every later call takes);
// - zod3: an inline zod/v3 shape;
// - standard: an ArkType object (a Standard Schema whose JSON Schema comes with the library);
// - json-schema: a Valibot object through `toStandardJsonSchema()` (the JSON Schema converter
//   wrapped around a Standard Schema).
// A stop is one entry into a file: a call whose caller runs in another file (or outside ours);
// a stop in a file entered before is a return to a file already left. `--max-entries N` exits 1
// when any file is entered more than N times in any case.
import { relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'
import { SIX_FIELD_ANSWER, legacyRun, sixFieldShape } from './ask-form-stub.mjs'
import { registerSourceHooks } from './source-hooks.mjs'

const root = resolve(import.meta.dirname, '..')
const src = resolve(root, 'src')
const server = resolve(src, 'runtime/server')

/** @type {{ from: string, file: string, name: string }[] | undefined} */
let recording
const frameFile = /\((file:\/\/[^)]+?):\d+:\d+\)$|at (?:async )?(file:\/\/\S+?):\d+:\d+$/
/** Our file a stack frame runs in, or `undefined` for node_modules, Node's own and built-in frames. */
function ourFile(line) {
  const match = frameFile.exec(line.trim())
  const url = match?.[1] ?? match?.[2]
  if (!url) return undefined
  const path = fileURLToPath(url)
  return path.startsWith(src) ? label(path) : undefined
}
globalThis.__mcpTrace = (file, name) => {
  if (!recording) return
  // The caller is the nearest frame below the traced function that runs our code: a call from
  // Zod (a getter it reads) or from Array.prototype.map is charged to whoever called those.
  const holder = {}
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 200
  Error.captureStackTrace(holder, globalThis.__mcpTrace)
  Error.stackTraceLimit = limit
  const frames = String(holder.stack).split('\n').slice(2)
  const from = frames.map(ourFile).find(found => found !== undefined) ?? '(caller)'
  recording.push({ from, file, name })
}

/** A file's name in the output: under src/runtime/server/ without that prefix, else under src/. */
function label(path) {
  return relative(server, path).startsWith('..') ? relative(src, path) : relative(server, path)
}

/** The name a function is known by: its own, its variable's, its property's, else its line. */
function nameOf(node, source) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text
  if (node.name) return node.name.getText(source)
  const parent = node.parent
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(source)
  const { line } = source.getLineAndCharacterOfPosition(node.getStart(source))
  return `<anonymous:${line + 1}>`
}

function traceCall(factory, file, name) {
  return factory.createExpressionStatement(factory.createCallExpression(
    factory.createPropertyAccessExpression(factory.createIdentifier('globalThis'), '__mcpTrace'),
    undefined,
    [factory.createStringLiteral(file), factory.createStringLiteral(name)],
  ))
}

/** A transformer that makes every function body start with `globalThis.__mcpTrace(file, name)`. */
function instrument(file, source) {
  return context => (sourceFile) => {
    const { factory } = context
    const visit = (node) => {
      const visited = ts.visitEachChild(node, visit, context)
      const isFunction = ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isMethodDeclaration(node)
        || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node) || ts.isConstructorDeclaration(node)
      if (isFunction && visited.body) {
        const body = factory.updateBlock(visited.body, [traceCall(factory, file, nameOf(node, source)), ...visited.body.statements])
        if (ts.isFunctionDeclaration(visited)) return factory.updateFunctionDeclaration(visited, visited.modifiers, visited.asteriskToken, visited.name, visited.typeParameters, visited.parameters, visited.type, body)
        if (ts.isFunctionExpression(visited)) return factory.updateFunctionExpression(visited, visited.modifiers, visited.asteriskToken, visited.name, visited.typeParameters, visited.parameters, visited.type, body)
        if (ts.isMethodDeclaration(visited)) return factory.updateMethodDeclaration(visited, visited.modifiers, visited.asteriskToken, visited.name, visited.questionToken, visited.typeParameters, visited.parameters, visited.type, body)
        if (ts.isGetAccessorDeclaration(visited)) return factory.updateGetAccessorDeclaration(visited, visited.modifiers, visited.name, visited.parameters, visited.type, body)
        if (ts.isSetAccessorDeclaration(visited)) return factory.updateSetAccessorDeclaration(visited, visited.modifiers, visited.name, visited.parameters, body)
        return factory.updateConstructorDeclaration(visited, visited.modifiers, visited.parameters, body)
      }
      if (ts.isArrowFunction(node)) {
        const trace = traceCall(factory, file, nameOf(node, source))
        const statements = ts.isBlock(visited.body) ? [trace, ...visited.body.statements] : [trace, factory.createReturnStatement(visited.body)]
        return factory.updateArrowFunction(visited, visited.modifiers, visited.typeParameters, visited.parameters, visited.type, visited.equalsGreaterThanToken, factory.createBlock(statements, true))
      }
      return visited
    }
    return ts.visitNode(sourceFile, visit)
  }
}

registerSourceHooks(src, (path, text) => {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true)
  return [instrument(label(path), source)]
})

const { z } = await import('zod')
const z3 = await import('zod/v3')
const { type } = await import('arktype')
const v = await import('valibot')
const { toStandardJsonSchema } = await import('@valibot/to-json-schema')
const { askForm } = await import(pathToFileURL(resolve(server, 'elicitation/ask.ts')).href)

const zodShape = () => sixFieldShape(z)
const zod3Shape = () => ({ name: z3.string().min(2), age: z3.number().int().optional(), plan: z3.enum(['free', 'pro']) })
const arkForm = type({ name: 'string >= 2', 'age?': 'number.integer', plan: '"free" | "pro"' })
const valibotForm = toStandardJsonSchema(v.object({ name: v.pipe(v.string(), v.minLength(2)), age: v.optional(v.number()), plan: v.picklist(['free', 'pro']) }))

const cases = [
  ['zod (first call)', zodShape, SIX_FIELD_ANSWER],
  ['zod (next call, new inline shape)', zodShape, SIX_FIELD_ANSWER],
  ['zod3', zod3Shape, { name: 'Ada', plan: 'free' }],
  ['standard (ArkType)', () => arkForm, { name: 'Ada', plan: 'free' }],
  ['json-schema (Valibot + toStandardJsonSchema)', () => valibotForm, { name: 'Ada', plan: 'free' }],
]

/**
 * The entries into a file: calls whose caller runs in another file (or outside ours). Consecutive
 * calls of the same function from the same file are folded into one line of the sequence.
 */
function entriesOf(calls) {
  const entries = []
  for (const { from, file, name } of calls) {
    if (from === file) continue
    const last = entries.at(-1)
    if (last?.from === from && last.file === file && last.name === name) last.count++
    else entries.push({ from, file, name, count: 1 })
  }
  return entries
}

function summarize(label, calls) {
  const entries = entriesOf(calls)
  const perFile = new Map()
  let returns = 0
  for (const entry of entries) {
    returns += perFile.has(entry.file) ? entry.count : entry.count - 1
    perFile.set(entry.file, (perFile.get(entry.file) ?? 0) + entry.count)
  }
  const stops = [...perFile.values()].reduce((sum, count) => sum + count, 0)
  return { label, calls: calls.length, stops, returns, perFile: Object.fromEntries(perFile), sequence: entries }
}

const results = []
for (const [label, make, answer] of cases) {
  const options = { message: 'Who are you?', schema: make() }
  const run = legacyRun(answer)
  recording = []
  const result = await askForm(run, options)
  const entries = recording
  recording = undefined
  if (result.action !== 'accept') throw new Error(`${label}: the stub's answer was not accepted`)
  results.push(summarize(label, entries))
}

const args = process.argv.slice(2)
if (args.includes('--json')) console.log(JSON.stringify(results, null, 2))
else {
  for (const result of results) {
    console.log(`\n## ${result.label}: ${result.calls} functions run, ${result.stops} stops (entries into a file from another), ${result.returns} returns to a file already left`)
    result.sequence.forEach((entry, index) => console.log(`${String(index + 1).padStart(3)}  ${entry.from.padEnd(36)} → ${entry.file.padEnd(36)} ${entry.name}${entry.count > 1 ? ` ×${entry.count}` : ''}`))
    console.log('  entries per file:')
    for (const [file, count] of Object.entries(result.perFile).sort((a, b) => b[1] - a[1])) console.log(`    ${String(count).padStart(3)}  ${file}`)
  }
}
const maxIndex = args.indexOf('--max-entries')
if (maxIndex >= 0) {
  const max = Number(args[maxIndex + 1])
  const over = results.flatMap(result => Object.entries(result.perFile).filter(([, count]) => count > max).map(([file, count]) => `${result.label}: ${file} entered ${count} times`))
  if (over.length > 0) {
    console.error(`More than ${max} entries:\n  ${over.join('\n  ')}`)
    process.exit(1)
  }
}
