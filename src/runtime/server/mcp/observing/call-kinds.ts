/** The requests that run a definition's handler: what `mcp:call` and the call spans are about. */
export type McpCallMethod = 'tools/call' | 'resources/read' | 'prompts/get'

/**
 * How a call ended:
 * - `ok`: a result;
 * - `tool-error`: a tool result with `isError: true` (bad arguments, the handler threw, a refusal);
 * - `input-required`: a modern round ended asking the client (the call goes on in its retry);
 * - `protocol-error`: a JSON-RPC error (`errorCode` says which: unknown name, -32042, …);
 * - `cancelled`: the client cancelled or went away before the answer.
 */
export type McpCallOutcome = 'ok' | 'tool-error' | 'input-required' | 'protocol-error' | 'cancelled'
