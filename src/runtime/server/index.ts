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
export type { McpToolView } from './mcp/views/apps'
export type { McpStandardSchema } from './common/standard-schema'
export { useMcpElicitation } from './elicitation/use-elicitation'
export type { McpElicitation, McpAskMode, McpAskOptions, McpFormOptions, McpFormResult, McpUrlOptions, McpUrlResult, McpConfirmOptions } from './elicitation/use-elicitation'
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
// The hooks' own types come from the one file that declares every hook (and brings its
// `NitroRuntimeHooks` declarations into the app's types with them).
export type { McpAuthContext, McpTokenContext, McpRequestContext, McpServerEvent, McpCallEvent, McpQuestionEvent } from './hooks'
export type { McpTokenClaims } from './transport/door/auth'
export type { McpRefusalStatus } from './transport/door/middleware'
export type { McpCallMethod, McpCallOutcome } from './mcp/observing/observe-calls'
export type { McpQuestionStage } from './elicitation/question-events'
