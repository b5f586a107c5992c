import { convertToModelMessages, createUIMessageStream, createUIMessageStreamResponse, simulateReadableStream, stepCountIs, streamText } from 'ai'
import type { LanguageModel, UIMessage } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { readBody } from 'h3'

// The playground's chat: an MCP host that talks to the playground's own MCP server (/mcp, over
// loopback) with @ai-sdk/mcp, and shows that server's elicitations in the page.
//
// - With AI_GATEWAY_API_KEY set, a real model (NUXT_PLAYGROUND_MODEL, default openai/gpt-5-mini,
//   through the AI SDK's gateway) reads the conversation and decides which tool to call.
// - Without it, a scripted model (the AI SDK's MockLanguageModelV4) calls the tool picked in the
//   page (any tool the server lists: /api/chat-tools) with sample arguments, then says it is done
//   (the page shows the tool's result).

/**
 * Hand-picked arguments for some of the playground's tools in the scripted mode; any other tool
 * gets arguments made from its own `inputSchema` (`sampleArguments`, server/utils/).
 */
const SAMPLE_ARGS: Record<string, Record<string, unknown>> = {
  create_release: { name: 'v1.2.0' },
  delete_project: { project: 'demo' },
  echo: { text: 'hello from the scripted model' },
  show_weather: { city: 'Lyon' },
}

interface ChatBody {
  messages: UIMessage[]
  /** Scripted mode: the tool to call. */
  tool?: string
}

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
}

/** A model that calls `tool` once, then says what it returned: no key, no network. */
function scriptedModel(tool: string | undefined): LanguageModel {
  return new MockLanguageModelV4({
    provider: 'playground',
    modelId: 'scripted',
    doStream: async ({ prompt, tools }) => {
      const last = prompt.at(-1)
      const finish = (unified: 'stop' | 'tool-calls') => ({ type: 'finish' as const, usage, finishReason: { unified, raw: undefined } })
      if (last?.role === 'tool') {
        // The page shows the tool's result itself: the model only says it is done, without
        // repeating it (a real model would summarise instead).
        const result = last.content.map(part => part.type === 'tool-result' ? `The ${part.toolName} tool finished; its result is shown above.` : '').join('\n')
        return { stream: simulateReadableStream({ chunks: [
          { type: 'stream-start' as const, warnings: [] },
          { type: 'text-start' as const, id: 't1' },
          { type: 'text-delta' as const, id: 't1', delta: result },
          { type: 'text-end' as const, id: 't1' },
          finish('stop'),
        ] }) }
      }
      // The tool as the chat's MCP server lists it, with its input schema.
      const offered = tools?.find(each => each.type === 'function' && each.name === tool)
      if (!tool || !offered || offered.type !== 'function') {
        return { stream: simulateReadableStream({ chunks: [
          { type: 'stream-start' as const, warnings: [] },
          { type: 'text-start' as const, id: 't0' },
          { type: 'text-delta' as const, id: 't0', delta: tool ? `Scripted mode: the server has no tool "${tool}"; pick one of the list and press "Run tool".` : 'Scripted mode: pick a tool and press "Run tool" (set AI_GATEWAY_API_KEY to chat with a real model).' },
          { type: 'text-end' as const, id: 't0' },
          finish('stop'),
        ] }) }
      }
      return { stream: simulateReadableStream({ chunks: [
        { type: 'stream-start' as const, warnings: [] },
        { type: 'tool-call' as const, toolCallId: `call-${Date.now()}`, toolName: tool, input: JSON.stringify(SAMPLE_ARGS[tool] ?? sampleArguments(offered.inputSchema)) },
        finish('tool-calls'),
      ] }) }
    },
  })
}

export default defineEventHandler(async (event) => {
  const body = await readBody<ChatBody>(event)
  const mcpUrl = chatServerUrl(event)
  const real = Boolean(process.env.AI_GATEWAY_API_KEY)
  const model: LanguageModel = real ? (process.env.NUXT_PLAYGROUND_MODEL || 'openai/gpt-5-mini') : scriptedModel(body.tool)

  const stream = createUIMessageStream({
    async execute({ writer }) {
      // First statement of execute: sets the owner cookie before the response starts.
      const mcp = await createMcpHostClient(event, { writer, transport: { type: 'http', url: mcpUrl.href }, clientName: 'playground-chat' })
      try {
        const result = streamText({
          model,
          system: 'You are the playground assistant. Use the MCP tools to do what the user asks.',
          messages: await convertToModelMessages(body.messages),
          tools: await mcp.tools(),
          stopWhen: stepCountIs(4),
        })
        writer.merge(result.toUIMessageStream())
        await result.finishReason
      }
      finally {
        await mcp.close()
      }
    },
    onError: error => error instanceof Error ? error.message : String(error),
  })
  return createUIMessageStreamResponse({ stream, headers: { 'x-playground-mode': real ? 'model' : 'scripted' } })
})
