import { buildSharedFixtures } from './utils/fixture'

// Set up before each e2e file that starts the shared fixtures: waits until each is built from
// today's sources (the global setup builds them in the background; one it has not reached yet is
// built here). A setup file has no time limit, unlike a test or hook, so the wait for the builds
// is not charged to a test's own deadline.
await buildSharedFixtures()
