import { describe, expect, it } from 'vitest'
import { buildFixture } from '../../utils/fixture'

describe('a tool that names an MCP App view that does not exist', () => {
  // A real `nuxi build`: the error must come out of the module, through Nuxt, to the user.
  it('fails the build, naming the tool, its file, the missing view and the views there are', async () => {
    const failure = await buildFixture('views-missing-view').then(() => undefined, (error: unknown) => error)
    expect(failure).toBeInstanceOf(Error)
    const message = (failure as Error).message
    expect(message).toContain('the tool "show-chart" (server/mcp/tools/show-chart.ts) names "chart"')
    expect(message).toContain('Views are app/mcp/<name>.vue (here: "table")')
  }, 120_000)
})
