import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/e2e/**/*.test.ts'],
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    // e2e files start their own servers; two cores do not gain from more parallel builds.
    maxWorkers: 2,
  },
})
