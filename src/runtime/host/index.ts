/**
 * The MCP host side (Nitro), its whole public API: show an MCP server's elicitations and views to
 * the person in front of the page. The functions are auto-imported in `server/` when `mcp.host` is
 * on; functions and types are also `import … from 'nuxt-mcp-elicitation/host'`. See docs/host.md.
 * What is not here (the respond and view-call routes' helpers, the CSRF check, the config reader)
 * is the module's own.
 */
export { useMcpHostElicitation } from './use-host-elicitation'
export type { McpHostElicitation, McpHostElicitationOptions } from './use-host-elicitation'
export { createMcpHostClient } from './client'
export type { McpHostClientOptions, McpHostWriter } from './client'
export type { McpElicitationDataChunk, McpElicitationHandler, McpElicitationWriter, McpIncomingElicitation } from './elicitor'
export { createMcpMemoryElicitationRegistry } from './registry'
export type { McpElicitationRegistry, McpPendingElicitation, McpMemoryRegistryOptions } from './registry'
export { setMcpElicitationRegistry, useMcpElicitationRegistry } from './state'
export type { McpHostOwnerContext } from './owner'
export type { McpElicitationAnswer, McpElicitationContent, McpElicitationDataTypes, McpElicitationPartData, McpElicitationRequest } from '../chat/elicitation/types'
export type { McpViewPartData } from '../chat/elicitation/view-part'
