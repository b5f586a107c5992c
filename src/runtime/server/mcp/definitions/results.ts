import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/server'
import type { z } from 'zod'
import { isRecord } from '../../common/is-record'
import type { ArgumentsCheck } from './definitions'

function isCallToolResult(value: unknown): value is CallToolResult {
  return isRecord(value) && Array.isArray(value.content)
}

/** An `isError` tool result: how handler failures reach the model, in both eras. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true }
}

/**
 * Turns what a tool handler returned into a `CallToolResult`: a string becomes one text item, a
 * result passes through, and with an `outputSchema` an object becomes `structuredContent` (after
 * validation, so a tool never sends structured output that breaks its own contract).
 */
export async function toToolResult(value: unknown, output: ArgumentsCheck | undefined): Promise<CallToolResult> {
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] }
  if (isCallToolResult(value)) return value
  if (output) {
    const checked = await output(value)
    if (!checked.ok) return toolError(`The tool's result does not match its outputSchema (${checked.problem}). Fix the handler's return value.`)
    const structuredContent = checked.data
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent }
  }
  if (value === undefined || value === null) return { content: [] }
  return { content: [{ type: 'text', text: JSON.stringify(value) }] }
}

/** Turns what a resource handler returned into a `ReadResourceResult` for `uri`. */
export function toResourceResult(value: unknown, uri: string, mimeType: string | undefined): ReadResourceResult {
  if (typeof value === 'string') return { contents: [{ uri, text: value, ...(mimeType && { mimeType }) }] }
  if (isRecord(value) && Array.isArray(value.contents)) return value as ReadResourceResult
  return { contents: [{ uri, text: JSON.stringify(value), mimeType: mimeType ?? 'application/json' }] }
}

/** Turns what a prompt handler returned into a `GetPromptResult`. */
export function toPromptResult(value: unknown, description: string | undefined): GetPromptResult {
  if (typeof value === 'string') {
    return { ...(description && { description }), messages: [{ role: 'user', content: { type: 'text', text: value } }] }
  }
  if (isRecord(value) && Array.isArray(value.messages)) return value as GetPromptResult
  throw new TypeError('A prompt handler must return a string or a GetPromptResult ({ messages: [...] }).')
}

/** Lists Zod issues as `field: problem` for an error message that names every field at fault. */
export function describeIssues(error: z.ZodError, root = '(arguments)'): string {
  return error.issues.map(issue => `${issue.path.join('.') || root}: ${issue.message}`).join('; ')
}
