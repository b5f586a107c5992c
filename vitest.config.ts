import { configDefaults, defineConfig } from 'vitest/config'
import { LongestFirst, OWN_BUILDS } from './test/sequencer.ts'

export default defineConfig({
  test: {
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    // Three on two cores: most e2e time is spent waiting on servers, clients and browsers, not
    // computing, so a third file in flight fills the cores' idle time (875 s → 652 s on the 2-CPU
    // reference machine); own-build files are long and sorted first, so they do not pile up.
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'e2e-own-builds', include: OWN_BUILDS } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], exclude: [...configDefaults.exclude, ...OWN_BUILDS], setupFiles: ['test/fixtures-ready.ts'] } },
    ],
  },
})
