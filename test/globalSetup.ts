import { buildFixture, SHARED_FIXTURES } from './utils/fixture'

/**
 * Builds the fixtures several e2e files share, one after another, in the background: the unit
 * tests and the files that build their own apps (packaging, the runtimes) run meanwhile, and the
 * other e2e files wait for these builds (test/fixtures-ready.ts). A build that fails here is built
 * again by the first file that needs it, which fails with the build's log.
 */
export default function setup(): () => Promise<void> {
  const building = (async () => {
    for (const name of SHARED_FIXTURES) await buildFixture(name, { reuse: true }).catch(() => undefined)
  })()
  // The teardown: vitest ends only once the last build has ended.
  return () => building
}
