import { buildFixture } from './utils/fixture'

/** Fixtures every e2e file shares are built once per run. */
const SHARED_FIXTURES = ['basic', 'elicitation', 'host']

export default async function setup() {
  for (const name of SHARED_FIXTURES) await buildFixture(name, { reuse: true })
}
