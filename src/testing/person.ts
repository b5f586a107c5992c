/** A value a person can type into an elicitation form. */
export type McpAnswerValue = string | number | boolean | string[]

/** What a scripted person answers to one elicitation. */
export interface McpScriptedAnswer {
  [key: string]: unknown
  action: 'accept' | 'decline' | 'cancel'
  content?: Record<string, McpAnswerValue>
}

/** One elicitation request as the client received it. */
export interface McpReceivedElicitation {
  mode?: 'form' | 'url'
  message: string
  requestedSchema?: { type: 'object', properties: Record<string, { default?: unknown }>, required?: string[] }
  url?: string
  elicitationId?: string
}

/**
 * How the scripted person answers, tried in this order:
 * - `answer`: a function of the request;
 * - `byMessage`: the first entry whose key occurs in the request's message;
 * - `fields`: accept, with these values over the form's own defaults (fields it does not ask are left out);
 * - otherwise `fallbackAction` (default `'decline'`).
 */
export interface McpScriptedPerson {
  answer?: (request: McpReceivedElicitation) => McpScriptedAnswer | Promise<McpScriptedAnswer>
  byMessage?: Record<string, McpScriptedAnswer>
  fields?: Record<string, McpAnswerValue>
  fallbackAction?: 'decline' | 'cancel'
}

function isAnswerValue(value: unknown): value is McpAnswerValue {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    || (Array.isArray(value) && value.every(item => typeof item === 'string'))
}

function fillForm(request: McpReceivedElicitation, fields: Record<string, McpAnswerValue>): McpScriptedAnswer {
  const content: Record<string, McpAnswerValue> = {}
  for (const [name, property] of Object.entries(request.requestedSchema?.properties ?? {})) {
    const value = name in fields ? fields[name] : property.default
    if (isAnswerValue(value)) content[name] = value
  }
  return { action: 'accept', content }
}

/**
 * Decides what the scripted person answers to `request`.
 *
 * @example
 * ```ts
 * await answerMcpElicitationAs({ fields: { channel: 'beta' } }, { message: 'Pick', requestedSchema: { type: 'object', properties: { channel: {} } } })
 * // { action: 'accept', content: { channel: 'beta' } }
 * ```
 */
export async function answerMcpElicitationAs(person: McpScriptedPerson, request: McpReceivedElicitation): Promise<McpScriptedAnswer> {
  if (person.answer) return person.answer(request)
  for (const [fragment, answer] of Object.entries(person.byMessage ?? {})) {
    if (request.message.includes(fragment)) return answer
  }
  if (person.fields && request.mode !== 'url') return fillForm(request, person.fields)
  if (person.fields && request.mode === 'url') return { action: 'accept' }
  return { action: person.fallbackAction ?? 'decline' }
}
