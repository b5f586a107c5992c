/**
 * A JSON-RPC error as a complete HTTP response: how every refusal the module makes itself
 * (before the SDK sees the request) reaches the client.
 *
 * @example
 * ```ts
 * return jsonRpcError(403, -32000, 'Forbidden: Origin "https://evil.test" is not allowed. Add it to mcp.allowedOrigins.')
 * ```
 */
export function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}, id: string | number | null = null, data?: unknown): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message, ...(data !== undefined && { data }) }, id }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}
