import { createMCPClient } from '@ai-sdk/mcp'

// The tools the chat page offers to run with the scripted model: every tool the chat's MCP server
// lists (all pages), but those only a view may call. A tool you add to server/mcp/tools/ shows up
// here on the next load, with no list to edit.
export default defineEventHandler(async (event) => {
  const client = await createMCPClient({ transport: { type: 'http', url: chatServerUrl(event).href }, clientName: 'playground-chat-tools' })
  try {
    const tools: ListedChatTool[] = []
    let page = await client.listTools()
    tools.push(...page.tools)
    while (page.nextCursor != null) {
      page = await client.listTools({ params: { cursor: page.nextCursor } })
      tools.push(...page.tools)
    }
    return tools.filter(offeredToModel).map(tool => ({ name: tool.name, ...(tool.description && { description: tool.description }) }))
  }
  finally {
    await client.close()
  }
})
