import { describe, expect, it } from 'vitest'
import { buildFixture } from '../../utils/fixture'

describe('a malformed SKILL.md', () => {
  // A real `nuxi build`: the refusal must come out of the module's scan, through Nuxt, to the user.
  it('fails the build, naming the file, the rule and the fix', async () => {
    const failure = await buildFixture('skills-malformed').then(() => undefined, (error: unknown) => error)
    expect(failure).toBeInstanceOf(Error)
    const message = (failure as Error).message
    expect(message).toContain('server/mcp/skills/release-notes/SKILL.md')
    expect(message).toContain('`name: release_notes` breaks the Agent Skills naming rules')
    expect(message).toContain('Rename the skill')
  }, 180_000)
})
