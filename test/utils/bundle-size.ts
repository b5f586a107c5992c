import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { fixtureDir } from './fixture'

/** Every JavaScript file of a built fixture's server output (source maps left out). */
function serverScripts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return serverScripts(path)
    return /\.m?js$/.test(entry.name) ? [path] : []
  })
}

/**
 * The gzip size (level 9) of a built fixture's server output, in bytes: each script compressed on
 * its own and summed, what Nitro leaves for the platform to upload. Deterministic for a given
 * build, so two fixtures built in one run can be compared byte for byte.
 *
 * @example
 * ```ts
 * const share = serverGzipBytes('runtime-workers') - serverGzipBytes('runtime-workers-bare')
 * ```
 */
export function serverGzipBytes(fixture: string): number {
  return serverScripts(join(fixtureDir(fixture), '.output/server'))
    .reduce((total, file) => total + gzipSync(readFileSync(file), { level: 9 }).length, 0)
}
