/**
 * Explicit imports for people who prefer them over auto-imports:
 * `import { defineMcpTool, useMcpElicitation } from 'nuxt-mcp-elicitation/runtime'`.
 */
export { defineMcpTool, defineMcpResource, defineMcpPrompt } from './mcp/definitions/definitions'
export type {
  McpHandlerContext,
  McpToolDefinition,
  McpResourceDefinition,
  McpPromptDefinition,
  McpToolReturn,
  McpResourceReturn,
  McpPromptReturn,
  McpZodShape,
  McpJsonSchema,
  McpToolInput,
  McpToolArguments,
  McpPromptShape,
  McpCompleter,
} from './mcp/definitions/definitions'
export type { McpGuard, McpGuardContext, McpGuarded } from './mcp/definitions/guards'
export type { McpToolApp } from './mcp/views/apps'
export type { McpStandardSchema } from './common/standard-schema'
export { useMcpElicitation } from './elicitation/use-elicitation'
export type { McpElicitation, AskMode, AskOptions, FormOptions, FormResult, UrlOptions, UrlResult, ConfirmOptions } from './elicitation/use-elicitation'
export { McpElicitationError } from './elicitation/error'
export type { McpElicitationErrorCode } from './elicitation/error'
export { completeMcpUrlElicitation } from './elicitation/url-completion'
export { notifyMcpResourceUpdated } from './mcp/server/subscriptions'
export { notifyMcpListChanged } from './mcp/server/list-changes'
export { useMcpSession } from './mcp/server/use-session'
export { useMcpLogger } from './mcp/observing/use-logger'
export { useMcpTask } from './tasks/calls/use-task'
export type { McpTask } from './tasks/calls/use-task'
export type { McpToolExecution, McpTaskSupport } from './tasks/store/support'
export type { McpLogger, McpClientNotifier } from './mcp/observing/use-logger'
export type { McpSession } from './mcp/server/use-session'
export type { McpListKind, McpNotifyOptions } from './mcp/server/list-changes'
export type { McpAuthContext, McpTokenClaims, McpTokenContext } from './transport/door/auth'
export type { McpRequestContext, McpRefusalStatus } from './transport/door/middleware'
export type { McpCallEvent, McpCallMethod, McpCallOutcome } from './mcp/observing/observe-calls'
export type { McpQuestionEvent, McpQuestionStage } from './elicitation/question-events'
export type { McpServerEvent } from './mcp/observing/server-hook'
