import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildFixture, fixtureDir } from '../../utils/fixture'

describe('two tools with one name in the same layer', () => {
  // A real `nuxi build`: the error must come out of the module's scan, through Nuxt, to the user.
  it('fails the build with a message naming both files and the name', async () => {
    const tools = resolve(fixtureDir('duplicate-name'), 'server/mcp/tools')
    const failure = await buildFixture('duplicate-name').then(() => undefined, (error: unknown) => error)
    expect(failure).toBeInstanceOf(Error)
    const message = (failure as Error).message
    expect(message).toContain('Two tools are named "same"')
    expect(message).toContain(resolve(tools, 'first.ts'))
    expect(message).toContain(resolve(tools, 'second.ts'))
  }, 120_000)
})
