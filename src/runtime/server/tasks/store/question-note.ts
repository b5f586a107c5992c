import type { JSONRPCRequest } from '@modelcontextprotocol/server'
import { isRecord } from '../../common/is-record'

/**
 * The `_meta` key under which a 2025-11-25 task's pushed question tells the session's transport
 * which task question it is. It never leaves the server: the transport takes it off, and with
 * several instances notes the request id beside it, so that an answer reaching another instance
 * after the asking one died is kept for the instance that takes the task over.
 */
export const QUESTION_NOTE = 'nuxt-mcp-elicitation/task-question'

/** Which task question a pushed request is: the task, the question's key and digest, and when the task ends (epoch ms). */
export interface QuestionNote {
  taskId: string
  key: string
  /** The question's digest: an answer kept for a takeover is reused only for the same question. */
  q: string
  expiresAt: number
}

/**
 * `request` without its {@link QUESTION_NOTE}, and the note when it carried one.
 *
 * @example
 * ```ts
 * const { request: sent, note } = takeQuestionNote(request)
 * if (note) routing.notePush(String(sent.id), note)
 * ```
 */
export function takeQuestionNote<T extends JSONRPCRequest>(request: T): { request: T, note?: QuestionNote } {
  const meta = request.params?._meta
  if (!isRecord(meta) || !Object.hasOwn(meta, QUESTION_NOTE)) return { request }
  const { [QUESTION_NOTE]: value, ...rest } = meta
  const params = { ...request.params, _meta: rest }
  const stripped = { ...request, params }
  const note = readQuestionNote(value)
  return note ? { request: stripped, note } : { request: stripped }
}

/**
 * `value` as a {@link QuestionNote}, checked field by field (it may come back from Redis, written
 * by another version); `undefined` when it is not one.
 *
 * @example
 * ```ts
 * readQuestionNote(JSON.parse(text)) // { taskId, key, q, expiresAt } or undefined
 * ```
 */
export function readQuestionNote(value: unknown): QuestionNote | undefined {
  // A note without its question's digest (another version's) is none: its answer is not kept, and asked again.
  if (!isRecord(value) || typeof value.taskId !== 'string' || typeof value.key !== 'string' || typeof value.q !== 'string' || typeof value.expiresAt !== 'number') return undefined
  return { taskId: value.taskId, key: value.key, q: value.q, expiresAt: value.expiresAt }
}
