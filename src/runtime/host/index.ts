/**
 * The MCP host side (Nitro): show an MCP server's elicitations to the person in front of the page.
 * Auto-imported in `server/` when `mcp.host` is on. See docs/host.md.
 */
export { useMcpHostElicitation } from './use-host-elicitation'
export type { McpHostElicitation, McpHostElicitationOptions } from './use-host-elicitation'
export { createHostElicitor } from './elicitor'
export type { McpElicitationDataChunk, McpElicitationHandler, McpElicitationWriter, McpIncomingElicitation, HostElicitorOptions } from './elicitor'
export { createMemoryElicitationRegistry } from './registry'
export type { McpElicitationRegistry, McpPendingElicitation, MemoryRegistryOptions } from './registry'
export { setMcpElicitationRegistry, useMcpElicitationRegistry } from './state'
export { respondToElicitation } from './respond'
export type { McpRespondOutcome } from './respond'
export { checkCsrf } from './csrf'
export { useMcpHostConfig } from './config'
export type { McpHostConfig } from './config'
export { MCP_OWNER_COOKIE } from './owner'
export type { McpHostOwnerContext } from './owner'
export type { McpElicitationAnswer, McpElicitationContent, McpElicitationDataTypes, McpElicitationPartData, McpElicitationRequest } from '../chat/elicitation/types'
