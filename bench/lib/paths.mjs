// Where things live. The floors and the clients import the ROOT's SDK packages by file path, so
// that bench/node_modules (installed for @nuxtjs/mcp-toolkit) can never shadow them.
import { fileURLToPath, pathToFileURL } from 'node:url'
import { resolve } from 'node:path'

export const benchDir = fileURLToPath(new URL('..', import.meta.url))
export const repoRoot = resolve(benchDir, '..')
export const workDir = resolve(benchDir, '.work')
export const resultsDir = resolve(benchDir, 'results')
export const nuxi = resolve(repoRoot, 'node_modules/@nuxt/cli/bin/nuxi.mjs')

const ROOT_ENTRIES = {
  'sdk-v1/server-mcp': 'node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js',
  'sdk-v1/server-http': 'node_modules/@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js',
  'sdk-v1/types': 'node_modules/@modelcontextprotocol/sdk/dist/esm/types.js',
  'sdk-v1/client': 'node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js',
  'sdk-v1/client-http': 'node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js',
  'sdk-v2/server': 'node_modules/@modelcontextprotocol/server/dist/index.mjs',
  'sdk-v2/client': 'node_modules/@modelcontextprotocol/client/dist/index.mjs',
  'zod': 'node_modules/zod/index.js',
  'vite': 'node_modules/vite/dist/node/index.js',
}

/** Imports one of the root's packages by path (see ROOT_ENTRIES). */
export function importRoot(name) {
  const path = ROOT_ENTRIES[name]
  if (!path) throw new Error(`unknown root entry ${name}`)
  return import(pathToFileURL(resolve(repoRoot, path)).href)
}
