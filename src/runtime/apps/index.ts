export { defineMcpApp } from './define-mcp-app'
export type { McpAppDefinition } from './define-mcp-app'
export { connectMcpApp, useMcpApp } from './use-mcp-app'
export type { McpAppContext } from './use-mcp-app'
