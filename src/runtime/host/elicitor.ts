import { randomUUID } from 'node:crypto'
import { toElicitationRequest } from '../chat/elicitation/request'
import { MCP_ELICITATION_PART_TYPE } from '../chat/elicitation/types'
import type { McpElicitationAnswer, McpElicitationPartData } from '../chat/elicitation/types'
import type { McpViewPartData } from '../chat/elicitation/view-part'
import type { McpElicitationRegistry } from './registry'

/** The UI message chunk the host writes: a `data-mcp-elicitation` part, reconciled by its id. */
export interface McpElicitationDataChunk {
  type: typeof MCP_ELICITATION_PART_TYPE
  id: string
  data: McpElicitationPartData
}

/**
 * The part of an AI SDK `UIMessageStreamWriter` the host needs. Any `writer` from
 * `createUIMessageStream({ execute({ writer }) })` fits (for a typed `UIMessage`, include
 * `McpElicitationDataTypes` in its data types).
 */
export interface McpElicitationWriter {
  write: (chunk: McpElicitationDataChunk) => void
}

/** An `elicitation/create` request as an MCP client hands it over (`@ai-sdk/mcp`'s fits). */
export interface McpIncomingElicitation {
  params: { message: string; [key: string]: unknown }
}

/** Handles one server elicitation: shows it, waits, returns the person's answer. */
export type McpElicitationHandler = (request: McpIncomingElicitation) => Promise<McpElicitationAnswer>

/** Options of {@link createMcpHostElicitor}. */
export interface McpHostElicitorOptions {
  registry: McpElicitationRegistry
  /** Owner key of the person this chat request belongs to. */
  owner: Promise<string | undefined> | string | undefined
  write: McpElicitationWriter['write']
  timeoutMs: number
  /** Prefix of the respond endpoint (`/api/_mcp/elicitations`). */
  route: string
  /** Aborted when the browser goes away: every pending request is answered `cancel`. */
  signal?: AbortSignal
  /** The asking server's name, shown with the request (a function: read when a request comes). */
  server?: string | (() => string | undefined)
  /** The MCP App that renders a form whose `_meta.ui.resourceUri` names one, when the host can show it. */
  view?: (params: Record<string, unknown>, id: string) => Promise<McpViewPartData | undefined>
  now?: () => number
  generateId?: () => string
}

/**
 * The core of `useMcpHostElicitation`, independent of h3: registers each request under a fresh
 * id, writes it as a data part, waits for the answer (or the timeout, or an abort: both answer
 * `cancel`, never a hang), then rewrites the part as `answered` or `expired`.
 *
 * @example
 * ```ts
 * const handler = createMcpHostElicitor({ registry, owner, write: chunk => writer.write(chunk), timeoutMs: 300_000, route: '/api/_mcp/elicitations' })
 * client.onElicitationRequest(ElicitationRequestSchema, handler)
 * ```
 */
export function createMcpHostElicitor(options: McpHostElicitorOptions): McpElicitationHandler {
  const now = options.now ?? Date.now
  const generateId = options.generateId ?? randomUUID
  const write = (data: McpElicitationPartData) => {
    try {
      options.write({ type: MCP_ELICITATION_PART_TYPE, id: data.id, data })
    }
    catch {} // A closed stream: the abort signal answers for the person.
  }
  return async (incoming) => {
    const request = toElicitationRequest(incoming.params)
    const owner = await options.owner
    // Nobody could answer (unsupported request, no owner, browser gone): say so at once.
    if (typeof request === 'string' || owner === undefined || options.signal?.aborted) return { action: 'cancel' }
    const id = generateId()
    const createdAt = now()
    const expiresAt = createdAt + options.timeoutMs
    try {
      await options.registry.add({ id, owner, request, createdAt, expiresAt })
    }
    catch (error) {
      console.warn(`[nuxt-mcp-elicitation] Could not register an elicitation, answering cancel: ${error instanceof Error ? error.message : String(error)}`)
      return { action: 'cancel' }
    }
    const answered = options.registry.wait(id)
    let timedOut = false
    const cancel = () => { void options.registry.settle(id, { action: 'cancel' }).catch(() => {}) }
    const timer = setTimeout(() => {
      timedOut = true
      cancel()
    }, options.timeoutMs)
    options.signal?.addEventListener('abort', cancel, { once: true })
    const server = typeof options.server === 'function' ? options.server() : options.server
    // A view that cannot be read leaves the plain form: never a reason not to ask.
    const view = request.mode === 'form' && options.view ? await options.view(incoming.params, id).catch(() => undefined) : undefined
    const data: McpElicitationPartData = {
      ...request,
      id,
      status: 'pending',
      respondUrl: `${options.route}/${encodeURIComponent(id)}`,
      expiresAt,
      ...(server ? { server } : {}),
      ...(view ? { view } : {}),
    }
    try {
      write(data)
      const answer = await answered
      write({ ...data, status: timedOut && answer.action === 'cancel' ? 'expired' : 'answered', action: answer.action })
      return answer
    }
    finally {
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', cancel)
    }
  }
}
