// Loads the module's TypeScript sources straight from `src/` in a plain Node process, for scripts
// that measure or trace runtime code without a build (scripts/trace-ask-form.mjs,
// bench/measure/ask-form-schema.mjs). The sources import without extensions (Nuxt's bundler
// resolves them): `./x` is tried as `./x.ts`, then `./x/index.ts`.
import { existsSync, readFileSync } from 'node:fs'
import { registerHooks } from 'node:module'
import { dirname, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'

/**
 * Registers resolve and load hooks for the TypeScript files under `src`, transpiled with
 * TypeScript; `transformers(path, text)` may add `before` transformers (an instrumentation).
 *
 * @example
 * registerSourceHooks(resolve('src'))
 * const { askForm } = await import(pathToFileURL(resolve('src/runtime/server/elicitation/ask.ts')).href)
 */
export function registerSourceHooks(src, transformers = () => []) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const parent = context.parentURL?.startsWith('file:') ? fileURLToPath(context.parentURL) : undefined
      if (parent?.startsWith(src) && specifier.startsWith('.')) {
        const base = resolve(dirname(parent), specifier)
        for (const candidate of [`${base}.ts`, resolve(base, 'index.ts')]) {
          if (existsSync(candidate)) return { url: pathToFileURL(candidate).href, shortCircuit: true }
        }
      }
      return nextResolve(specifier, context)
    },
    load(url, context, nextLoad) {
      if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context)
      const path = fileURLToPath(url)
      const text = readFileSync(path, 'utf8')
      const output = ts.transpileModule(text, {
        fileName: path,
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false },
        transformers: { before: transformers(path, text) },
      })
      return { format: 'module', source: output.outputText, shortCircuit: true }
    },
  })
}
