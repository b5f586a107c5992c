import type { JSONRPCMessage } from '@modelcontextprotocol/server'
import type { McpSharedState } from '../../cluster/shared-state'
import { keepAnswer } from './shared-tasks'
import { readQuestionNote } from './question-note'
import type { QuestionNote } from './question-note'

// A 2025-11-25 task's question and its answer with several instances: the instance that pushed
// it notes which task question each request id is; an answer that reaches another instance while
// the asking one does not listen (its connection is coming back, or it died with the question) is
// kept as the task's answer too, so the instance that takes the task over finds it and does not
// ask again. (The answer itself travels to the asking instance through the mailbox.)

const pushKey = (sessionId: string, requestId: string) => `task-push:${sessionId}:${requestId}`

/**
 * Notes that request `requestId` of session `sessionId` is task question `note`, until the task ends.
 *
 * @example
 * ```ts
 * void notePush(shared, sessionId, '4w6t6w4q.7', { taskId, key: 'confirm', q, expiresAt })
 * ```
 */
export async function notePush(shared: McpSharedState, sessionId: string, requestId: string, note: QuestionNote): Promise<void> {
  const left = note.expiresAt - Date.now()
  if (left > 0) await shared.put(pushKey(sessionId, requestId), JSON.stringify(note), left)
}

/** The note of a pushed request, when it was a task's question still open. */
async function readNote(shared: McpSharedState, sessionId: string, requestId: string): Promise<QuestionNote | undefined> {
  const text = await shared.get(pushKey(sessionId, requestId))
  if (text === undefined) return undefined
  return readQuestionNote(JSON.parse(text))
}

/**
 * Keeps `message` as the answer of the task question it answers; `false` when the request it
 * answers was no task's question (rejects while Redis cannot say).
 *
 * @example
 * ```ts
 * await keepForTakeover(shared, sessionId, { jsonrpc: '2.0', id: '4w6t6w4q.7', result: { action: 'accept' } })
 * ```
 */
export async function keepForTakeover(shared: McpSharedState, sessionId: string, message: JSONRPCMessage): Promise<boolean> {
  if (!('result' in message) || (typeof message.id !== 'string' && typeof message.id !== 'number')) return false
  const note = await readNote(shared, sessionId, String(message.id))
  if (!note) return false
  await keepAnswer(shared, note.taskId, note.key, { q: note.q, r: message.result }, note.expiresAt - Date.now())
  return true
}
