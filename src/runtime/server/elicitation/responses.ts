import type { ElicitResult } from '@modelcontextprotocol/server'

const ACTIONS = new Set(['accept', 'decline', 'cancel'])

function isAnswerValue(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    || (Array.isArray(value) && value.every(item => typeof item === 'string'))
}

/**
 * Checks that a client's answer is an elicitation result at all (before its content is checked
 * against the form): a known action, content only on accept, values of the allowed kinds.
 * Returns the problem, or `undefined` when the shape is fine.
 *
 * @example
 * ```ts
 * checkResponseShape({ action: 'maybe' }) // "action must be 'accept', 'decline' or 'cancel', got \"maybe\""
 * ```
 */
export function checkResponseShape(response: unknown): string | undefined {
  if (typeof response !== 'object' || response === null || Array.isArray(response)) return 'expected an object { action, content? }'
  const { action, content } = response as Record<string, unknown>
  if (typeof action !== 'string' || !ACTIONS.has(action)) return `action must be 'accept', 'decline' or 'cancel', got ${JSON.stringify(action)}`
  if (content === undefined) return undefined
  if (action !== 'accept') return `content is only allowed when action is 'accept' (got action '${action}' with content)`
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return 'content must be an object of field values'
  for (const [field, value] of Object.entries(content)) {
    if (!isAnswerValue(value)) return `content["${field}"] must be a string, number, boolean or string array`
  }
  return undefined
}

/**
 * A client's answer read as an elicitation result, or the problem with its shape
 * ({@link checkResponseShape}): one check, then the narrowed result.
 *
 * @example
 * ```ts
 * const read = readElicitResult(response)
 * if (!read.ok) return { ok: false, issues: [read.problem] }
 * read.result.action // 'accept' | 'decline' | 'cancel'
 * ```
 */
export function readElicitResult(response: unknown): { ok: true, result: ElicitResult } | { ok: false, problem: string } {
  const problem = checkResponseShape(response)
  // Checked just above: an object with a known action and content of answer values only.
  return problem === undefined ? { ok: true, result: response as ElicitResult } : { ok: false, problem }
}
