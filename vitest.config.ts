import { configDefaults, defineConfig } from 'vitest/config'
import { LongestFirst, OWN_BUILDS } from './test/sequencer.ts'

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
