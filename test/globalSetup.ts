import { buildFixture } from './utils/fixture'

/** Fixtures several e2e files share are built once per run, before any file starts (two files building one fixture at once would clobber it). */
const SHARED_FIXTURES = ['basic', 'elicitation', 'host', 'shared-state', 'oauth', 'guards', 'views']

export default async function setup() {
  for (const name of SHARED_FIXTURES) await buildFixture(name, { reuse: true })
}
