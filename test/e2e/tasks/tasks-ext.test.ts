import { resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client'
import type { ApplicationInputRequest, ResolvedInputExchangeContext } from '@modelcontextprotocol/ext-tasks/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTaskSession } from '../../../scripts/mcp-task-clients.mjs'
import { textOf } from '../../utils/clients'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'

/**
 * The same tasks through `@modelcontextprotocol/ext-tasks` 0.2.2 over the v2 SDK `Client`: pinned
 * to 2026-07-28 (the tasks extension: `tasks/get` → `tasks/update`) and on a 2025-11-25 session.
 */

let app: RunningFixture

beforeAll(async () => {
  app = await startFixture('elicitation')
})
afterAll(async () => {
  await app?.stop()
})

interface Asked { request: ApplicationInputRequest, context: ResolvedInputExchangeContext }

describe.each(['modern', 'legacy'] as const)('ext-tasks client, %s', (era) => {
  it('creates a task, answers its form (an invalid answer asked again), and gets the result', async () => {
    const asked: Asked[] = []
    const answers = [
      { action: 'accept', content: { env: 'staging', replicas: 0 } },
      { action: 'accept', content: { env: 'staging', replicas: 3 } },
    ]
    const { session, close } = await openTaskSession(app.url, {
      era,
      headers: { 'x-user': 'ada' },
      onInput: (request, context) => {
        asked.push({ request, context })
        return answers.shift() ?? { action: 'cancel' }
      },
    })
    try {
      const execution = await session.callTool('task_deploy', { service: 'web' }, { task: { preference: 'prefer' } })
      expect(execution.kind).toBe('task')
      const { outcome } = await execution.settle()
      const result = resultFromTaskOutcome(outcome)
      expect(textOf(result)).toMatch(/^Deployed build-web to staging with 3 replicas \(task [\w-]+\)\.$/)
      expect(asked).toHaveLength(2)
      expect(asked[0]?.request.kind).toBe('elicitation')
      expect(asked[0]?.request.params).toMatchObject({ message: 'Where should web go?' })
      expect(String(asked[1]?.request.params?.message)).toMatch(/Please correct your answer/)
      // 2026-07-28 hands the questions out in tasks/get and takes the answers by tasks/update;
      // 2025-11-25 pushes them to the session, tagged with the task.
      expect(asked.map(entry => entry.context.delivery)).toEqual(era === 'modern' ? ['task-update', 'task-update'] : ['peer-request', 'peer-request'])
      if (era === 'modern') expect(asked[1]?.context.inputId).not.toBe(asked[0]?.context.inputId)
    }
    finally {
      await close()
    }
  })

  it(era === 'modern'
    ? 'gets the answer of a tool whose handler ended at once directly, as the extension allows'
    : 'gets a task for a tool whose handler ended at once, as the client asked', async () => {
    const { session, close } = await openTaskSession(app.url, { era, headers: { 'x-user': 'ada' }, onInput: () => ({ action: 'cancel' }) })
    try {
      const execution = await session.callTool('task_quick', { text: era }, { task: { preference: 'prefer' } })
      expect(execution.kind).toBe(era === 'modern' ? 'immediate' : 'task')
      const { outcome } = await execution.settle()
      expect(textOf(resultFromTaskOutcome(outcome))).toBe(`Done: ${era}`)
    }
    finally {
      await close()
    }
  })

  it('cancels a task that waits for its answer: it ends cancelled', async () => {
    let release: () => void = () => {}
    const waiting = new Promise<void>((resolve) => {
      release = resolve
    })
    const { session, close } = await openTaskSession(app.url, {
      era,
      headers: { 'x-user': 'ada' },
      // The person never answers: the question stays open until the task is cancelled.
      onInput: async () => {
        await waiting
        return { action: 'cancel' }
      },
    })
    try {
      const execution = await session.callTool('task_deploy', { service: 'db' }, { task: { preference: 'prefer' } })
      if (execution.kind !== 'task') throw new Error(`expected a task, got ${execution.kind}`)
      const controller = session.task(execution.handle.taskId)
      const deadline = Date.now() + 5000
      while ((await controller.snapshot()).status !== 'input_required' && Date.now() < deadline) await new Promise(resolve => setTimeout(resolve, 20))
      expect((await controller.snapshot()).status).toBe('input_required')
      await controller.cancel()
      expect((await controller.snapshot()).status).toBe('cancelled')
    }
    finally {
      release()
      await close()
    }
  })
})
