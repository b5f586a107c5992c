import { readFileSync } from 'node:fs'
import { expect } from 'vitest'
import { buildSharedFixtures, builtFixture, SHARED_FIXTURES } from './utils/fixture'

// Set up before each e2e file that starts the shared fixtures: waits until the ones it names (as a
// quoted string: `useCluster('shared-state', 2)`, `startFixture('elicitation')`) are built from
// today's sources, so a file starts as soon as its own fixtures are ready rather than all seven
// (the global setup builds them in the background; one it has not reached yet is built here). A
// file that names none may start one through a helper: it waits for all. A setup file has no
// time limit, unlike a test or hook, so the wait for the builds is not charged to a test's own
// deadline.
const file = expect.getState().testPath
const source = file ? readFileSync(file, 'utf8') : ''
const named = SHARED_FIXTURES.filter(name => new RegExp(`['"\`]${name}['"\`]`).test(source))
if (named.length === 0) await buildSharedFixtures()
for (const name of named) await builtFixture(name)
