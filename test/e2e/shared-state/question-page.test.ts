import { beforeAll, describe, expect, it } from 'vitest'
import { connectLegacy, connectModern, textOf } from '../../utils/clients'
import { useCluster } from '../../utils/cluster'
import type { Cluster } from '../../utils/cluster'
import { pageFieldName } from '../../../src/runtime/server/page/names'
import { answerQuestionPage, linkOf, openQuestionPage, questionOf } from '../../utils/question-page'

// Two instances behind nginx round-robin, one Redis: a question the client cannot show waits in
// Redis, its page is answered on the other instance, and the call made again (on either) goes on.
const cluster = useCluster('shared-state', 2)
let state: Cluster

beforeAll(() => {
  state = cluster()
})

describe('the app\'s question page across instances (Redis)', () => {
  it('legacy (v1 Client without elicitation): each page answered on the other instance than the last one', async () => {
    const client = await connectLegacy(state.url)
    try {
      const [a, b] = state.instances
      const first = await client.callTool({ name: 'ask_two_rounds', arguments: {} })
      const link = linkOf(first)
      expect(link.startsWith(`${state.publicUrl}/_mcp/question/`)).toBe(true)
      expect((await answerQuestionPage(a!.origin, state.publicUrl, link, { [pageFieldName(0, 0)]: 'Ada' })).status).toBe(200)
      const second = await client.callTool({ name: 'ask_two_rounds', arguments: {} })
      expect(questionOf(second)?.questions.map(question => question.message)).toEqual(['Last name of Ada?'])
      expect(linkOf(second)).toBe(link)
      // A round is answered once, whichever instance is asked.
      expect((await answerQuestionPage(b!.origin, state.publicUrl, link, { [pageFieldName(0, 0)]: 'Lovelace' })).status).toBe(200)
      expect((await answerQuestionPage(a!.origin, state.publicUrl, link, { [pageFieldName(0, 0)]: 'Byron' }, { csrf: 'x' })).html).toContain('data-notice="answered"')
      expect(textOf(await client.callTool({ name: 'ask_two_rounds', arguments: {} }))).toBe('Ada Lovelace')
      // The binding ended on both instances.
      for (const instance of state.instances) expect((await openQuestionPage(instance.origin, link)).status).toBe(404)
    }
    finally {
      await client.close()
    }
  })

  it('2026-07-28 with a principal (v2 Client without elicitation): the page refuses another principal on either instance', async () => {
    const client = await connectModern(state.url, { requestInit: { headers: { 'x-user': 'grace' } } })
    try {
      const link = linkOf(await client.callTool({ name: 'ask_two_rounds', arguments: {} }))
      for (const instance of state.instances) {
        expect((await openQuestionPage(instance.origin, link, { 'x-user': 'mallory' })).status).toBe(401)
      }
      const [a, b] = state.instances
      await answerQuestionPage(b!.origin, state.publicUrl, link, { [pageFieldName(0, 0)]: 'Grace' }, { headers: { 'x-user': 'grace' } })
      const second = await client.callTool({ name: 'ask_two_rounds', arguments: {} })
      await answerQuestionPage(a!.origin, state.publicUrl, linkOf(second), { [pageFieldName(0, 0)]: 'Hopper' }, { headers: { 'x-user': 'grace' } })
      expect(textOf(await client.callTool({ name: 'ask_two_rounds', arguments: {} }))).toBe('Grace Hopper')
    }
    finally {
      await client.close()
    }
  })
})
