import { createMCPClient } from '@ai-sdk/mcp'
import type { MCPClient } from '@ai-sdk/mcp'
import { generateText, stepCountIs } from 'ai'
import type { LanguageModelV4Prompt } from '@ai-sdk/provider'
import { MockLanguageModelV4 } from 'ai/test'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, withFailureScreenshot } from '../../utils/browser'
import type { LaunchedBrowser } from '../../utils/browser'
import { startFixture } from '../../utils/fixture'
import type { RunningFixture } from '../../utils/fixture'
import { pageFieldName } from '../../../src/runtime/server/page/names'

// An agent on the AI SDK, with no elicitation (as most hosts today): a scripted model
// (MockLanguageModelV4) drives a generateText loop over @ai-sdk/mcp's tools. The tool's question
// cannot reach the client, so its result gives a link; the "person" answers the app's page in
// Chromium; the model reads that it may go on and calls the tool again with the same arguments.
const PUBLIC = 'http://mcp.test'

let app: RunningFixture
let browser: LaunchedBrowser

beforeAll(async () => {
  ;[app, browser] = await Promise.all([startFixture('elicitation', { NUXT_MCP_PUBLIC_URL: PUBLIC }), launchBrowser()])
})
afterAll(async () => {
  await Promise.all([app?.stop(), browser?.close()])
})

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
}

/** What the last tool result said, as the model reads it (whatever shape the SDK gives it). */
function lastToolOutput(prompt: LanguageModelV4Prompt): string | undefined {
  const last = prompt.at(-1)
  if (last?.role !== 'tool') return undefined
  return JSON.stringify(last.content)
}

/** The person, in Chromium: opens the link (on the app's own loopback address) and answers the form. */
async function answerInBrowser(link: string): Promise<void> {
  const { page } = browser
  await withFailureScreenshot(page, 'ai-sdk-page', async () => {
    await page.goto(new URL(new URL(link).pathname, app.origin).href)
    await page.fill(`[name="${pageFieldName(0, 0)}"]`, 'Ada')
    await page.selectOption(`[name="${pageFieldName(0, 2)}"]`, 'pro')
    await page.click('button[name="_action"][value="accept"]')
    await page.waitForSelector('[data-notice="answered"]')
  })
}

/** A model that calls ask_form, gives the person a link it is handed, and calls again once told. */
function scriptedAgent(calls: { link?: string, texts: string[] }): MockLanguageModelV4 {
  const args = JSON.stringify({ label: 'ai-sdk-page' })
  const toolCall = (id: string) => ({ content: [{ type: 'tool-call' as const, toolCallId: id, toolName: 'ask_form', input: args }], finishReason: { unified: 'tool-calls' as const, raw: undefined }, usage, warnings: [] })
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      const output = lastToolOutput(prompt)
      if (output === undefined) return toolCall('first')
      calls.texts.push(output)
      const link = /http:\/\/mcp\.test\/_mcp\/question\/[\w.-]+/.exec(output)?.[0]
      if (link) {
        // "Give the person this link": the person answers, says so, and the model calls again.
        calls.link = link
        await answerInBrowser(link)
        return toolCall('again')
      }
      return { content: [{ type: 'text' as const, text: `Done: ${output}` }], finishReason: { unified: 'stop' as const, raw: undefined }, usage, warnings: [] }
    },
  })
}

const eras: { era: string, discovery: boolean, headers: Record<string, string> }[] = [
  { era: 'legacy', discovery: false, headers: {} },
  { era: 'modern (with a principal)', discovery: true, headers: { 'x-user': 'ada' } },
]

describe.each(eras)('the AI SDK without elicitation, $era: the page answers in Chromium, the model calls back', ({ discovery, headers }) => {
  let client: MCPClient | undefined

  afterAll(async () => {
    await client?.close()
  })

  it('ends with the person\'s answer, through a link the model passed on', async () => {
    client = await createMCPClient({ transport: { type: 'http', url: app.url.href, headers }, protocolVersionDiscovery: discovery, clientName: 'ai-sdk-page' })
    const calls: { link?: string, texts: string[] } = { texts: [] }
    // The page asks for the principal in the browser too (the fixture's mcp:auth reads x-user).
    await browser.context.setExtraHTTPHeaders(headers)
    const { text, steps } = await generateText({ model: scriptedAgent(calls), tools: await client.tools(), prompt: 'Fill in my details.', stopWhen: stepCountIs(5) })
    expect(calls.link).toMatch(/^http:\/\/mcp\.test\/_mcp\/question\//)
    expect(calls.texts[0]).toContain('call ask_form again with exactly the same arguments')
    expect(steps.filter(step => step.toolCalls.length > 0)).toHaveLength(2)
    expect(text).toContain('\\"name\\":\\"Ada\\"')
    expect(text).toContain('\\"via\\":\\"page\\"')
  })
})
