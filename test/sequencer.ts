import { readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { BaseSequencer } from 'vitest/node'
import type { TestSpecification } from 'vitest/node'

/**
 * Seconds each test file took on the 2-CPU reference machine (test/durations.json; refresh it
 * with `node scripts/test-durations.mjs` after a full `npm test`). A file not in it is counted as
 * short: new files are.
 */
export const DURATIONS = resolve(import.meta.dirname, 'durations.json')
const UNKNOWN_SECONDS = 3

/**
 * The e2e files that build their own apps (`nuxi build` of their own fixtures, `npm pack` into a
 * fresh app) and start none of the shared fixtures: project `e2e-own-builds` (vitest.config.ts),
 * which runs from the first second, while the global setup builds the shared fixtures, instead of
 * waiting for those builds as the other e2e files do.
 */
export const OWN_BUILDS = [
  'test/e2e/tooling/packaging.test.ts',
  'test/e2e/runtimes/runtimes.test.ts',
  'test/e2e/caching/cache-storage.test.ts',
  'test/e2e/definitions/duplicate-name.test.ts',
  'test/e2e/views/views-build.test.ts',
  'test/e2e/tooling/baked-secret.test.ts',
  'test/e2e/definitions/skills.test.ts',
  'test/e2e/definitions/skills-build.test.ts',
  'test/e2e/definitions/inspector-skills.test.ts',
]

/**
 * The project a file's run waits for least: the unit tests and the files that build their own
 * apps start while the global setup still builds the shared fixtures; the other e2e files wait
 * for those builds (test/fixtures-ready.ts), so they come after.
 */
const PROJECT_ORDER: Record<string, number> = { 'e2e-own-builds': 0, 'unit': 1, 'e2e': 2 }

/** Reads test/durations.json: repo-relative path → seconds. */
function readDurations(): Map<string, number> {
  const table = JSON.parse(readFileSync(DURATIONS, 'utf8')) as Record<string, number>
  return new Map(Object.entries(table))
}

/**
 * Runs the longest files first, by the seconds they took on the reference machine. Vitest's own
 * order needs the results cache of an earlier run, which a fresh clone (CI) has not: there it runs
 * larger files first, and a short file that runs long (the 75 s chaos run) came last and held the
 * run while the other worker idled. Longest first, the files end close together.
 *
 * @example
 * ```ts
 * export default defineConfig({ test: { sequence: { sequencer: LongestFirst } } })
 * ```
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = readDurations()
    const root = this.ctx.config.root
    const secondsOf = (spec: TestSpecification) => durations.get(relative(root, spec.moduleId).split('\\').join('/')) ?? UNKNOWN_SECONDS
    const orderOf = (spec: TestSpecification) => PROJECT_ORDER[spec.project.name] ?? 1
    return [...files].sort((a, b) => orderOf(a) - orderOf(b) || secondsOf(b) - secondsOf(a) || a.moduleId.localeCompare(b.moduleId))
  }
}
