import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, textOf } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { until } from '../../utils/until'

// The playground's task (playground/server/mcp/tools/build-report.ts), as a newcomer meets it in a
// client without tasks: "it goes on", then its progress by calling again. The limit is 300 ms here
// rather than 30 s, so the test does not wait for it; the first step takes the tool's own 8 s.
let app: RunningFixture
beforeAll(async () => {
  app = await startFixture('host', { NUXT_MCP_TASKS_DETACH_AFTER_MS: '300' })
})
afterAll(async () => {
  await app?.stop()
})

const JOB = 'nuxt-mcp-elicitation/job'

describe('the playground\'s long job, in a client without tasks (the v1 Client)', () => {
  it('answers "it goes on", and calling again shows the steps it reports', async () => {
    const client = await connectLegacy(app.url)
    try {
      const args = { month: '2026-11' }
      const first = await client.callTool({ name: 'build_report', arguments: args })
      expect(textOf(first)).toContain('The job "build_report" goes on in the background')
      expect(first._meta?.[JOB]).toMatchObject({ status: 'working' })
      let status: Awaited<ReturnType<typeof client.callTool>> | undefined
      await until(async () => {
        status = await client.callTool({ name: 'build_report', arguments: args })
        return /\(step \d of 6\)/.test(textOf(status))
      }, 'a step reported once it went on as a task', 15_000, 500)
      expect(status?._meta?.[JOB]).toMatchObject({ status: 'working', statusMessage: expect.stringMatching(/\(step \d of 6\)$/) })
    }
    finally {
      await client.close()
    }
  }, 30_000)
})
