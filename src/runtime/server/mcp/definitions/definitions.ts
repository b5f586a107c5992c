/**
 * The definitions room (`mcp/definitions/`): what an app declares (`defineMcpTool` & co., their
 * guards, header parameters and cache and task options), how their arguments are read and checked
 * (Zod, Standard Schema, JSON Schema, a prompt's strings), the registry computed once from them,
 * the context a handler gets and the MCP results its return value becomes. It must not know the
 * server room (the SDK server's request handlers), sessions, HTTP, or tasks beyond a tool's
 * `execution`.
 */
import type { H3Event } from 'h3'
import type { z } from 'zod'
import type {
  AuthInfo,
  CallToolResult,
  GetPromptResult,
  LoggingLevel,
  ReadResourceResult,
  ToolAnnotations,
} from '@modelcontextprotocol/server'
import type { McpEra } from '../../common/context'
import type { McpElicitation } from '../../elicitation/use-elicitation'
import type { McpGuarded } from './guards'
import type { McpResourceCache, McpToolCache } from '../caching/plan'
import type { McpToolExecution } from '../../tasks/store/support'
import type { McpToolView } from '../views/apps'
import type { McpStandardSchema, StandardInput, StandardOutput } from '../../common/standard-schema'

type MaybePromise<T> = T | Promise<T>

/** A Zod raw shape: `{ field: z.string(), … }`. */
export type McpZodShape = Record<string, z.ZodType>

/**
 * A tool's arguments as a JSON Schema written by hand (2020-12 unless its `$schema` says
 * otherwise; an object schema): listed exactly as written and checked by a 2020-12 validator
 * that runs on every runtime. The handler gets `Record<string, unknown>`: no type is inferred
 * from it (write the type yourself, or use a Zod shape).
 */
export interface McpJsonSchema {
  /** `"object"` (typed `string` too, so that a schema imported from a `.json` file fits). */
  type: 'object' | (string & {})
  [keyword: string]: unknown
}

/** What a tool's `inputSchema` may be: a Zod shape, a Standard Schema with a JSON Schema converter (Valibot, ArkType, a Zod object), or a JSON Schema as written. */
export type McpToolInput = McpZodShape | McpStandardSchema | McpJsonSchema

/** What a tool's `outputSchema` may be: a Zod shape, or a Standard Schema with a JSON Schema converter. */
export type McpToolOutput = McpZodShape | McpStandardSchema

/** What a tool's handler gets: the schema library's output (Zod shape, Standard Schema), or, for a JSON Schema, the checked object. */
export type McpToolArguments<I extends McpToolInput> = I extends McpStandardSchema ? StandardOutput<I> : I extends McpZodShape ? ShapeOutput<I> : Record<string, unknown>

/** The second argument of every handler. */
export interface McpHandlerContext {
  /** The h3 event of the HTTP request that carried this call. */
  event: H3Event
  /** Aborted when the call is cancelled or the client disconnects. */
  signal: AbortSignal
  /** `legacy` (≤ 2025-11-25, sessions) or `modern` (2026-07-28, stateless). */
  era: McpEra
  /** Set by your `mcp:auth` hook. */
  principal?: string
  authInfo?: AuthInfo
  /** The legacy session id; `undefined` on modern requests. */
  sessionId?: string
  /**
   * Sends a log message to the client (`notifications/message`), if it asked for that level
   * (legacy: `logging/setLevel`; modern: the request's log level). Otherwise nothing is sent.
   */
  log: (level: LoggingLevel, data: unknown, logger?: string) => Promise<void>
  /** Reports progress, when the client sent a progress token with this request. */
  progress: (progress: number, total?: number, message?: string) => Promise<void>
  /**
   * The same as `useMcpElicitation()`, handed in: use it where the request context cannot follow
   * every `await` (on Cloudflare Workers without `nodejs_compat`, `useMcpElicitation()` works only
   * before the handler's first `await`).
   */
  elicit: McpElicitation
}

/**
 * Suggests values for one argument (`completion/complete`): gets what the person typed so far
 * and the other arguments already filled in; returns candidates (at most 100 are sent).
 */
export type McpCompleter = (value: string, context: { arguments: Record<string, string> }) => string[] | Promise<string[]>

type ShapeOutput<S extends McpZodShape> = z.output<z.ZodObject<S>>

/**
 * What a tool handler may return: a string (one text item), a full `CallToolResult`, or — when
 * the tool declares an `outputSchema` — the structured object itself.
 */
export type McpToolReturn<O extends McpToolOutput | undefined> =
  | string
  | CallToolResult
  | (O extends McpStandardSchema ? StandardInput<O> : O extends McpZodShape ? ShapeOutput<O> : never)

/** A tool, as written in `server/mcp/tools/*.ts`. */
export interface McpToolDefinition<I extends McpToolInput = McpZodShape, O extends McpToolOutput | undefined = undefined> extends McpGuarded {
  /** Defaults to the file name (`server/mcp/tools/send-mail.ts` → `send-mail`). */
  name?: string
  title?: string
  description?: string
  /** Arguments as a Zod raw shape, a Standard Schema ({@link McpStandardSchema}: Valibot, ArkType, a Zod object) or a JSON Schema object ({@link McpJsonSchema}); validated before the handler runs. */
  inputSchema?: I
  /** Structured output as a Zod raw shape or a Standard Schema (Valibot, ArkType, a Zod object); a returned object becomes `structuredContent`, checked by it. */
  outputSchema?: O
  annotations?: ToolAnnotations
  /**
   * The group the tool belongs to (e.g. `'admin'`). Defaults to its folder under `tools/`
   * (`server/mcp/tools/admin/ban.ts` → `'admin'`). Listed as `_meta.group`; a client may ask for
   * one group's tools with `X-MCP-Tools: group:admin`. A view, not a guard: see `scopes`/`enabled`.
   */
  group?: string
  /** Labels (e.g. `['read-only']`): listed as `_meta.tags`; `X-MCP-Tools: tag:read-only` asks for every tool with one. */
  tags?: readonly string[]
  /**
   * Serve a result again for the same arguments (and, by default, the same caller) for a while:
   * `'10m'`, `3600` (seconds) or `{ maxAge, scope, getKey }`. Never kept: an error result, or a
   * call that asked the person anything. Kept in this process, or in Redis with `NUXT_MCP_REDIS_URL`.
   */
  cache?: McpToolCache
  /**
   * Run as a task (`{ taskSupport: 'optional' | 'required' }`): the call returns a task at once,
   * the handler goes on in the background and may wait for a person as long as the task's ttl
   * (`mcp.tasks.ttlMs`, an hour by default; hours if you set it). See the tasks guide.
   */
  execution?: McpToolExecution
  /**
   * The view that shows this tool's result (MCP Apps): the name of a view, `app/mcp/<name>.vue`
   * (or `{ name, visibility }`). Listed as `_meta.ui.resourceUri`: hosts that render MCP Apps
   * show the view with the call's arguments and result. A name with no view fails the build.
   */
  view?: McpToolView
  /** Extra `_meta` the tool is listed with (merged under what `view` sets). */
  _meta?: Record<string, unknown>
  handler: (args: McpToolArguments<I>, context: McpHandlerContext) => MaybePromise<McpToolReturn<O>>
}

/**
 * Defines an MCP tool. Auto-imported in server code.
 *
 * @example
 * ```ts
 * // server/mcp/tools/echo.ts
 * import { z } from 'zod'
 * export default defineMcpTool({
 *   description: 'Repeats the text',
 *   inputSchema: { text: z.string() },
 *   handler: async ({ text }) => text,
 * })
 *
 * // or with a JSON Schema you already have (listed as written; `args` is Record<string, unknown>)
 * export default defineMcpTool({
 *   inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
 *   handler: async args => String(args.text),
 * })
 * ```
 */
export function defineMcpTool<I extends McpToolInput = Record<string, never>, O extends McpToolOutput | undefined = undefined>(
  definition: McpToolDefinition<I, O>,
): McpToolDefinition<I, O> {
  return definition
}

/** What a resource handler may return: text, or a full `ReadResourceResult`. */
export type McpResourceReturn = string | ReadResourceResult

/** A resource, as written in `server/mcp/resources/*.ts`. */
export interface McpResourceDefinition extends McpGuarded {
  /** Defaults to the file name. */
  name?: string
  title?: string
  description?: string
  mimeType?: string
  /** A fixed URI (`config://app`) or an RFC 6570 template (`users://{id}/profile`). */
  uri: string
  /** Completions for the URI template's variables, by variable name. */
  complete?: Record<string, McpCompleter>
  /**
   * Serve a read again for the same URI and caller (`'10m'`, seconds, or `{ maxAge, scope, getKey }`),
   * and tell 2026-07-28 clients how long they may keep it (`ttlMs` / `cacheScope`). Default: not cached.
   */
  cache?: McpResourceCache
  /** Extra `_meta` the resource is listed with. */
  _meta?: Record<string, unknown>
  /** `variables` holds the template's values (empty for a fixed URI). */
  handler: (uri: URL, variables: Record<string, string | string[]>, context: McpHandlerContext) => MaybePromise<McpResourceReturn>
}

/**
 * Defines an MCP resource with a fixed URI or a URI template. Auto-imported in server code.
 *
 * @example
 * ```ts
 * // server/mcp/resources/readme.ts
 * export default defineMcpResource({
 *   uri: 'docs://readme',
 *   mimeType: 'text/markdown',
 *   handler: () => '# Hello',
 * })
 * ```
 */
export function defineMcpResource(definition: McpResourceDefinition): McpResourceDefinition {
  return definition
}

/** Prompt arguments are strings on the wire: a shape of string schemas, optional ones allowed. */
export type McpPromptShape = Record<string, z.ZodType<string | undefined>>

/**
 * What a prompt's `arguments` may be: a Zod shape of string schemas, or a Standard Schema object
 * of string properties (Valibot through `toStandardJsonSchema()`, ArkType), nothing more: prompt
 * arguments are strings on the wire.
 */
export type McpPromptArguments = McpPromptShape | McpStandardSchema<Record<string, string | undefined>, unknown>

/** What a prompt's handler gets: the Zod shape's output, or the Standard Schema library's. */
export type McpPromptArgs<A extends McpPromptArguments> = A extends McpStandardSchema ? StandardOutput<A> : A extends McpPromptShape ? z.output<z.ZodObject<A>> : never

/** The argument names of a prompt, for `complete`. */
type McpPromptArgumentName<A extends McpPromptArguments> = A extends McpStandardSchema ? keyof StandardInput<A> : keyof A

/** What a prompt handler may return: one user message of text, or a full `GetPromptResult`. */
export type McpPromptReturn = string | GetPromptResult

/** A prompt, as written in `server/mcp/prompts/*.ts`. */
export interface McpPromptDefinition<A extends McpPromptArguments = McpPromptShape> extends McpGuarded {
  /** Defaults to the file name. */
  name?: string
  title?: string
  description?: string
  /** String arguments: a Zod shape of string schemas, or a Standard Schema object of string properties. */
  arguments?: A
  /** Completions for arguments, by argument name. */
  complete?: { [K in McpPromptArgumentName<A>]?: McpCompleter }
  handler: (args: McpPromptArgs<A>, context: McpHandlerContext) => MaybePromise<McpPromptReturn>
}

/**
 * Defines an MCP prompt. Auto-imported in server code.
 *
 * @example
 * ```ts
 * // server/mcp/prompts/review.ts
 * import { z } from 'zod'
 * export default defineMcpPrompt({
 *   arguments: { file: z.string().describe('Path to review') },
 *   handler: ({ file }) => `Review ${file} for bugs.`,
 * })
 * ```
 */
export function defineMcpPrompt<A extends McpPromptArguments = Record<string, never>>(
  definition: McpPromptDefinition<A>,
): McpPromptDefinition<A> {
  return definition
}

/** A tool's arguments, checked: the data the handler gets, or what is wrong, field by field. */
export type ArgumentsChecked = { ok: true, data: Record<string, unknown> } | { ok: false, problem: string }

/** Checks a tool's arguments; a Standard Schema library may answer asynchronously. */
export type ArgumentsCheck = (value: unknown) => ArgumentsChecked | Promise<ArgumentsChecked>
