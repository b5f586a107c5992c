import { configDefaults, defineConfig } from 'vitest/config'
import { LongestFirst } from './test/sequencer.ts'

/**
 * The e2e files that build their own apps (`nuxi build` of their own fixtures, `npm pack` into a
 * fresh app) and start none of the shared fixtures: they run from the first second, while the
 * global setup builds the shared fixtures, instead of waiting for those builds as the other e2e
 * files do.
 */
const OWN_BUILDS = [
  'test/e2e/tooling/packaging.test.ts',
  'test/e2e/runtimes/runtimes.test.ts',
  'test/e2e/caching/cache-storage.test.ts',
  'test/e2e/definitions/duplicate-name.test.ts',
  'test/e2e/apps/apps-build.test.ts',
  'test/e2e/tooling/baked-secret.test.ts',
]

export default defineConfig({
  test: {
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    // e2e files start their own servers; two cores do not gain from more parallel builds.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'e2e-own-builds', include: OWN_BUILDS } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], exclude: [...configDefaults.exclude, ...OWN_BUILDS], setupFiles: ['test/fixtures-ready.ts'] } },
    ],
  },
})
