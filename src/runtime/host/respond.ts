import { createHash, timingSafeEqual } from 'node:crypto'
import { readRequestedSchema } from '../chat/elicitation/fields'
import { validateContent } from '../chat/elicitation/validate'
import type { McpElicitationAnswer, McpRespondError } from '../chat/elicitation/types'
import type { McpElicitationRegistry } from './registry'
import { isRecord } from '../server/common/is-record'

/** What the respond endpoint answers: 200 with the action taken, or an error body. */
export type McpRespondOutcome =
  | { status: 200; body: { ok: true; action: McpElicitationAnswer['action'] } }
  | { status: 400 | 404; body: McpRespondError }

const NOT_PENDING = 'No pending elicitation with this id: it is unknown, expired or already answered.'

/** Compares owner keys in constant time (hashes first, so lengths do not leak either). */
function sameOwner(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest()
  return timingSafeEqual(digest(a), digest(b))
}

function badRequest(error: string, fields?: Record<string, string>): McpRespondOutcome {
  return { status: 400, body: fields ? { error, fields } : { error } }
}

/**
 * Answers a pending elicitation for its owner: the logic of `POST <route>/:id`, without HTTP.
 * 404 for an id that is unknown, expired, already answered or owned by someone else (one answer
 * for all four, so ids cannot be probed); 400 for a malformed body or an `accept` whose content
 * does not match the requested schema, with one message per field.
 *
 * @example
 * ```ts
 * const outcome = await respondToMcpElicitation(registry, { id, owner, body: { action: 'accept', content: { name: 'Ada' } } })
 * setResponseStatus(event, outcome.status)
 * return outcome.body
 * ```
 */
export async function respondToMcpElicitation(
  registry: McpElicitationRegistry,
  request: { id: string | undefined; owner: string | undefined; body: unknown },
): Promise<McpRespondOutcome> {
  const { body } = request
  const action = isRecord(body) ? body.action : undefined
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') {
    return badRequest('Send { "action": "accept" | "decline" | "cancel", "content"?: { … } }.')
  }
  const entry = request.id ? await registry.get(request.id) : undefined
  if (!entry || request.owner === undefined || !sameOwner(entry.owner, request.owner)) {
    return { status: 404, body: { error: NOT_PENDING } }
  }
  let answer: McpElicitationAnswer
  if (action !== 'accept') {
    // Content goes only with accept (spec): anything sent with decline/cancel is dropped.
    answer = { action }
  }
  else {
    const content = isRecord(body) ? body.content : undefined
    if (entry.request.mode === 'url') {
      if (content !== undefined) return badRequest('A URL-mode elicitation is accepted without content.')
      answer = { action: 'accept' }
    }
    else {
      const read = readRequestedSchema(entry.request.requestedSchema)
      if (!read.ok) return badRequest(`This form cannot be accepted (${read.error}): decline or cancel it.`)
      const checked = validateContent(read.fields, content)
      if (!checked.ok) return badRequest('The answer does not match the requested schema.', checked.errors)
      answer = { action: 'accept', content: checked.content }
    }
  }
  if (!await registry.settle(entry.id, answer)) return { status: 404, body: { error: NOT_PENDING } }
  return { status: 200, body: { ok: true, action: answer.action } }
}
