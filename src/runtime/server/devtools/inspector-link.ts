/** Where the MCP Inspector's web UI listens when started with `npx @modelcontextprotocol/inspector` (its default port). */
export const INSPECTOR_ORIGIN = 'http://localhost:6274'

/**
 * The command that starts the MCP Inspector with `endpointUrl` filled in over Streamable HTTP.
 * Shared by the `nuxi dev` banner and the DevTools tab (this file imports nothing, so the
 * build-time banner can use it too).
 *
 * @example
 * ```ts
 * inspectorCommand('http://localhost:3000/mcp')
 * // 'npx @modelcontextprotocol/inspector --transport http --server-url http://localhost:3000/mcp'
 * ```
 */
export function inspectorCommand(endpointUrl: string): string {
  return `npx @modelcontextprotocol/inspector --transport http --server-url ${endpointUrl}`
}

/**
 * The running Inspector's page with `endpointUrl` filled in (its `transport` and `serverUrl`
 * query parameters). Inspector 2.x honours such a link only with its session token
 * (`autoConnect`), which only it knows: for it, {@link inspectorCommand} is the way.
 *
 * @example
 * ```ts
 * inspectorLink('http://localhost:3000/mcp/admin')
 * // 'http://localhost:6274/?transport=streamable-http&serverUrl=http%3A%2F%2Flocalhost%3A3000%2Fmcp%2Fadmin'
 * ```
 */
export function inspectorLink(endpointUrl: string): string {
  return `${INSPECTOR_ORIGIN}/?${new URLSearchParams({ transport: 'streamable-http', serverUrl: endpointUrl })}`
}
