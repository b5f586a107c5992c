import { z } from 'zod'
import type { CreateMessageRequestParams, CreateMessageResultWithTools, Root } from '@modelcontextprotocol/server'
import { askForm, askRoots, askSample, askUrl, requireUrl, runOnce, supportsMode } from './ask'
import type { McpAskMode, McpAskOptions, McpFormOptions, McpFormResult, McpUrlOptions, McpUrlResult } from './ask'
import { McpElicitationError } from './error'
import type { FormShape } from './schema'
import { getCurrentRun } from './run'
import type { ElicitationRun } from './run'

export type { McpAskMode, McpAskOptions, McpFormOptions, McpFormResult, McpUrlOptions, McpUrlResult } from './ask'

/** Options of {@link McpElicitation.confirm}. */
export interface McpConfirmOptions extends McpAskOptions {
  /** Returned instead of asking when the client cannot show forms. */
  fallback?: boolean
}

/** What `useMcpElicitation()` returns. */
export interface McpElicitation {
  /** Asks for a form; resolves with `{ action, content? }`, `content` typed from `schema`. */
  form: <S extends FormShape>(options: McpFormOptions<S>) => Promise<McpFormResult<S>>
  /** Sends the person to a URL (secrets, OAuth, payments); resolves with `{ action, elicitationId? }`. */
  url: (options: McpUrlOptions) => Promise<McpUrlResult>
  /** A yes/no question: true only when accepted and confirmed. */
  confirm: (message: string, options?: McpConfirmOptions) => Promise<boolean>
  /** Whether THIS request's client declared the mode or capability. */
  supports: (mode: McpAskMode) => boolean
  /** Legacy: raise the spec's URL-required error (-32042). Modern: ask like `url()`. */
  requireUrl: (options: Omit<McpUrlOptions, 'fallback'>) => Promise<McpUrlResult>
  /** Asks the client's model for a completion (`sampling/createMessage`); `content` is one block or a list. */
  sample: (params: CreateMessageRequestParams, options?: McpAskOptions) => Promise<CreateMessageResultWithTools>
  /** Asks the client for its roots (`roots/list`). */
  listRoots: (options?: McpAskOptions) => Promise<Root[]>
  /** Runs a side effect once per call, even across modern retries (result kept in the signed state). */
  once: <T>(key: string, step: () => T | Promise<T>) => Promise<T>
}

/**
 * `confirm()`'s one field. Defaulted to `false`, so it is optional on the wire and carries
 * `default: false` (booleans have had `default` since 2025-06-18, the first revision with
 * elicitation): a client can submit the box unticked, and that answer, or one without the field,
 * is "no". Required with no default, the MCP Inspector keeps Submit disabled until the box is
 * ticked, and a person can only say no by declining.
 */
const CONFIRM_SHAPE = { confirm: z.boolean().default(false).meta({ title: 'Confirm' }) }

/**
 * Asks the person in front of the MCP client for input, from inside a tool, resource or prompt
 * handler. The same code serves legacy clients (the question is pushed on the open stream) and
 * modern 2026-07-28 clients (the round ends with `input_required` and the handler re-runs on the
 * retry, getting the answer) — see the elicitation guide for what re-runs.
 *
 * @example
 * ```ts
 * export default defineMcpTool({
 *   inputSchema: { name: z.string() },
 *   async handler({ name }) {
 *     const elicit = useMcpElicitation()
 *     const r = await elicit.form({ message: `Channel for ${name}?`, schema: { channel: z.enum(['stable', 'beta']) } })
 *     if (r.action !== 'accept') return `Cancelled (${r.action}).`
 *     if (!(await elicit.confirm(`Release ${name} on ${r.content.channel}?`))) return 'Not confirmed.'
 *     return `Released ${name} on ${r.content.channel}`
 *   },
 * })
 * ```
 */
export function useMcpElicitation(): McpElicitation {
  const run = getCurrentRun()
  if (!run) {
    throw new McpElicitationError('outside-handler', 'useMcpElicitation() was called outside an MCP tool, resource or prompt handler (or, where the request context does not follow `await`, after the handler\'s first `await`). Call it at the top of the `handler` function, or use the handler\'s `context.elicit`.')
  }
  return elicitationOf(run)
}

/**
 * The elicitation API of one handler execution, without looking the run up: what the handler
 * context's `elicit` is.
 *
 * @example
 * ```ts
 * const context = { ...rest, elicit: elicitationOf(run) }
 * ```
 */
export function elicitationOf(run: ElicitationRun): McpElicitation {
  return {
    form: options => askForm(run, options),
    url: options => askUrl(run, options),
    confirm: async (message, options = {}) => {
      const { fallback, ...rest } = options
      const result = await askForm(run, {
        ...rest,
        message,
        schema: CONFIRM_SHAPE,
        // A yes that lets something happen: a person gives it, never a model holding a link.
        consent: true,
        fallback: fallback === undefined ? undefined : (fallback ? { action: 'accept', content: { confirm: true } } : { action: 'decline' }),
      })
      return result.action === 'accept' && result.content.confirm
    },
    supports: mode => supportsMode(run, mode),
    requireUrl: options => requireUrl(run, options),
    sample: (params, options) => askSample(run, params, options),
    listRoots: options => askRoots(run, options),
    once: (key, step) => runOnce(run, key, step),
  }
}
