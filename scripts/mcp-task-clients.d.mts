// Types of scripts/mcp-task-clients.mjs, for the TypeScript tests that use it.
import type { Client } from '@modelcontextprotocol/client'
import type { ApplicationInputRequest, ResolvedInputExchangeContext, TaskEnabledSession } from '@modelcontextprotocol/ext-tasks/client'

export type OnTaskInput = (request: ApplicationInputRequest, context: ResolvedInputExchangeContext) => unknown

export declare function openTaskSession(url: URL, options?: {
  era?: 'modern' | 'legacy'
  name?: string
  capabilities?: Record<string, unknown>
  onInput?: OnTaskInput
  headers?: Record<string, string>
}): Promise<{ session: TaskEnabledSession, client: Client, close: () => Promise<void> }>
