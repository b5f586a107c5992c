/**
 * Helpers to test your own MCP tools end to end: `import { … } from 'nuxt-mcp-elicitation/testing'`.
 * They need `@modelcontextprotocol/client` installed (an optional peer dependency).
 */
export { connectMcpTestClient, forEachMcpEra } from './client'
export type { McpTestClient, McpTestClientOptions, McpTestCall, McpRecordedElicitation, McpTestEra } from './client'
export { answerMcpElicitationAs } from './person'
export type { McpScriptedPerson, McpScriptedAnswer, McpAnswerValue, McpReceivedElicitation } from './person'
export { startMcpTestApp } from './app'
export type { McpTestApp, McpTestAppOptions } from './app'
