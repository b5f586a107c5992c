import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildHash, fixtureDir } from '../../utils/fixture'

// A fixture is rebuilt when its sources' hash changes. What tools write beside the sources
// during a run (wrangler's .wrangler state, nuxi's .nuxt, dev copies) must not change it, or a
// file starting a cluster rebuilds a fixture that other files are serving at that moment.
describe('the fixtures\' source hash', () => {
  it('ignores what tools write into a fixture\'s dot-folders', () => {
    const before = buildHash()
    const written = join(fixtureDir('runtime-workers'), `.wrangler-probe-${randomBytes(4).toString('hex')}`)
    try {
      mkdirSync(join(written, 'state'), { recursive: true })
      writeFileSync(join(written, 'state', 'db.sqlite'), 'state written at run time')
      expect(buildHash()).toBe(before)
    }
    finally {
      rmSync(written, { recursive: true, force: true })
    }
  })
})
