// Types of scripts/mcp-clients.mjs, for the TypeScript tests that use it.
import type { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client'

/** What a scripted person answers to an elicitation. */
export interface ElicitAnswer { [key: string]: unknown, action: 'accept' | 'decline' | 'cancel', content?: Record<string, unknown> }
export type OnElicit = (params: Record<string, unknown>) => ElicitAnswer | Promise<ElicitAnswer>

export interface ClientOptions {
  name?: string
  capabilities?: Record<string, unknown>
  onElicit?: OnElicit
  /** How long `initialize` may take (the SDKs' default is 60 s). */
  timeout?: number
}

export declare function connectV1(url: URL, options?: ClientOptions & { requestInit?: RequestInit }): Promise<{ client: V1Client, transport: V1Transport }>
export declare function connectV2(url: URL, options?: ClientOptions & { requestInit?: RequestInit, mode?: 'auto' | 'legacy' | { pin: string } }): Promise<{ client: V2Client, transport: V2Transport }>
export declare function mcpRemoteBin(root: string): string
export declare function connectMcpRemote(url: URL, options: ClientOptions & { root: string, protocol?: 'legacy' | 'auto', headers?: Record<string, string> }): Promise<{ client: V1Client, close: () => Promise<void> }>
