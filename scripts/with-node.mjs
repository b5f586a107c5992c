#!/usr/bin/env node
// `node scripts/with-node.mjs <command> [args…]`: runs a command of the project (nuxi,
// nuxt-module-build, node …) on a Node that Nuxt supports. On an older system Node it says so and
// uses Node 24 from .cache/ (scripts/node-runtime.mjs); the command's own `node` is that one too.
import { spawnSync } from 'node:child_process'
import { delimiter, resolve } from 'node:path'
import { ensureSupportedNode, envWithNode } from './node-runtime.mjs'

ensureSupportedNode(import.meta.filename)
const [command, ...args] = process.argv.slice(2)
if (!command) {
  console.error('Usage: node scripts/with-node.mjs <command> [args…]')
  process.exit(2)
}
const bin = resolve(import.meta.dirname, '../node_modules/.bin')
const env = envWithNode(process.execPath)
const result = spawnSync(command, args, { stdio: 'inherit', env: { ...env, PATH: `${bin}${delimiter}${env.PATH}` } })
if (result.error) console.error(`${command}: ${result.error.message}`)
process.exit(result.status ?? 1)
