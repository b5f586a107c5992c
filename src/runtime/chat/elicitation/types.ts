/**
 * Types shared by the host's Nitro side (`src/runtime/host`) and its Vue side: what an MCP server
 * asks (the spec's elicitation request), what the person answers, and the data part that carries a
 * pending request through an AI SDK UI message stream. Pure types, no runtime imports.
 */

/** A value a form answer may hold (MCP spec: strings, numbers, booleans, lists of strings). */
export type McpElicitationValue = string | number | boolean | string[]

/** The `content` of an accepted form answer. */
export type McpElicitationContent = Record<string, McpElicitationValue>

/** What the person answered; `content` only with `accept` of a form. */
export type McpElicitationAnswer =
  | { action: 'accept'; content?: McpElicitationContent }
  | { action: 'decline' }
  | { action: 'cancel' }

/** A request in form mode: a message and the flat JSON Schema of the fields (`requestedSchema`). */
export interface McpFormElicitationRequest {
  mode: 'form'
  message: string
  /** The server's `requestedSchema`, as received (read it with `readRequestedSchema`). */
  requestedSchema: unknown
}

/** A request in URL mode: the person opens `url` (the server's own page) to continue there. */
export interface McpUrlElicitationRequest {
  mode: 'url'
  message: string
  url: string
  /** The server's id of this URL elicitation (for `notifications/elicitation/complete`). */
  elicitationId?: string
}

/** Either kind of elicitation request, normalised. */
export type McpElicitationRequest = McpFormElicitationRequest | McpUrlElicitationRequest

/** Where a pending elicitation stands. `expired` = the host's timeout answered `cancel`. */
export type McpElicitationStatus = 'pending' | 'answered' | 'expired'

/**
 * The payload of the `data-mcp-elicitation` part the host writes into the chat's UI message stream.
 * Written once as `pending`, then again (same part id, so the AI SDK replaces it in place) as
 * `answered` or `expired`.
 */
export type McpElicitationPartData = McpElicitationRequest & {
  /** The host's id of this pending request: the `:id` of the respond endpoint. */
  id: string
  status: McpElicitationStatus
  /** Where the browser POSTs the answer, e.g. `/api/_mcp/elicitations/<id>`. */
  respondUrl: string
  /** Epoch milliseconds after which the host answers `cancel` on the person's behalf. */
  expiresAt: number
  /** The action taken, once `answered` (or `cancel` once `expired`). */
  action?: McpElicitationAnswer['action']
  /** The name of the MCP server asking, when known. */
  server?: string
  /**
   * An MCP App that renders this form (SEP-3118, experimental), when the server named one and
   * the host can show views: the page shows it in `<McpViewFrame>`, with `<McpElicitationForm>`
   * as the fallback. The answer goes to the same respond endpoint, checked the same way.
   */
  view?: import('./view-part').McpViewPartData
}

/** The part type (`data-` + name) in a UI message. */
export const MCP_ELICITATION_PART_TYPE = 'data-mcp-elicitation'

/**
 * Data part types for a typed `UIMessage`: `UIMessage<unknown, McpElicitationDataTypes>`.
 *
 * @example
 * ```ts
 * import type { UIMessage } from 'ai'
 * type ChatMessage = UIMessage<unknown, McpElicitationDataTypes>
 * ```
 */
export interface McpElicitationDataTypes {
  [key: string]: unknown
  'mcp-elicitation': McpElicitationPartData
}

/** The custom request header the respond endpoint requires (CSRF protection). */
export const MCP_ELICITATION_HEADER = 'x-mcp-elicitation'

/** The error body of the respond endpoint: a message, and per-field messages on 400. */
export interface McpRespondError {
  error: string
  fields?: Record<string, string>
}
