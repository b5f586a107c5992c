/**
 * Explicit imports for people who prefer them over auto-imports:
 * `import { defineMcpTool, useMcpElicitation } from 'nuxt-mcp-elicitation/runtime'`.
 */
export { defineMcpTool, defineMcpResource, defineMcpPrompt } from './mcp/definitions'
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
} from './mcp/definitions'
export type { McpGuard, McpGuardContext, McpGuarded } from './mcp/guards'
export type { McpToolView } from './mcp/apps'
export type { McpStandardSchema } from './common/standard-schema'
export { useMcpElicitation } from './elicitation/use-elicitation'
export type { McpElicitation, McpAskMode, McpAskOptions, McpFormOptions, McpFormResult, McpUrlOptions, McpUrlResult, McpConfirmOptions } from './elicitation/use-elicitation'
export { McpElicitationError } from './elicitation/error'
export type { McpElicitationErrorCode } from './elicitation/error'
export { completeMcpUrlElicitation } from './elicitation/url-completion'
export { notifyMcpResourceUpdated } from './mcp/subscriptions'
export { notifyMcpListChanged } from './mcp/list-changes'
export { useMcpSession } from './mcp/use-session'
export { useMcpLogger } from './mcp/use-logger'
export { useMcpTask } from './mcp/use-task'
export type { McpTask } from './mcp/use-task'
export type { McpToolExecution, McpTaskSupport } from './mcp/task-support'
export type { McpLogger, McpClientNotifier } from './mcp/use-logger'
export type { McpSession } from './mcp/use-session'
export type { McpListKind, McpNotifyOptions } from './mcp/list-changes'
export type { McpAuthContext, McpTokenClaims, McpTokenContext } from './transport/door/auth'
export type { McpRequestContext, McpRefusalStatus } from './transport/door/middleware'
export type { McpCallEvent, McpCallMethod, McpCallOutcome } from './mcp/observe-calls'
export type { McpQuestionEvent, McpQuestionStage } from './elicitation/question-events'
export type { McpServerEvent } from './mcp/server-hook'
