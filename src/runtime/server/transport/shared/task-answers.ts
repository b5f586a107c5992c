import type { JSONRPCMessage } from '@modelcontextprotocol/server'
import { keepAnswer } from '../../tasks/shared-tasks'
import { readQuestionNote } from '../../tasks/question-note'
import type { QuestionNote } from '../../tasks/question-note'
import { newTag, sendAcknowledged } from './acknowledged'
import type { Acknowledgements } from './acknowledged'
import { DELIVERY_DEADLINE_MS, tryUntil } from '../../cluster/try-until'
import type { SharedSessionDirectory } from './sessions'

// A 2025-11-25 task's question and its answer with several instances: the instance that pushed
// it notes which task question each request id is; an answer that reaches another instance when
// the asking one no longer listens (it died with the question) is kept as the task's answer, so
// the instance that takes the task over finds it and does not ask again.

const pushKey = (sessionId: string, requestId: string) => `task-push:${sessionId}:${requestId}`

/**
 * Notes that request `requestId` of session `sessionId` is task question `note`, until the task ends.
 *
 * @example
 * ```ts
 * void notePush(directory, sessionId, '4w6t6w4q.7', { taskId, key: 'confirm', q, expiresAt })
 * ```
 */
export async function notePush(directory: SharedSessionDirectory, sessionId: string, requestId: string, note: QuestionNote): Promise<void> {
  const left = note.expiresAt - Date.now()
  if (left > 0) await directory.shared.put(pushKey(sessionId, requestId), JSON.stringify(note), left)
}

/** The note of a pushed request, when it was a task's question still open. */
async function readNote(directory: SharedSessionDirectory, sessionId: string, requestId: string): Promise<QuestionNote | undefined> {
  const text = await directory.shared.get(pushKey(sessionId, requestId))
  if (text === undefined) return undefined
  return readQuestionNote(JSON.parse(text))
}

/**
 * Hands the client's answer to the instance that sent the request it answers, until that instance
 * says it heard it ({@link sendAcknowledged}), for {@link DELIVERY_DEADLINE_MS}. When that instance
 * does not listen (restarting, or dead with the question) and the request was a task's question,
 * the answer is also kept for the task's takeover: a live instance gets it, and the kept copy is
 * read back only when its instance died.
 *
 * @example
 * ```ts
 * void forwardAnswer(directory, acknowledgements, sessionId, '4w6t6w4q', { jsonrpc: '2.0', id: '4w6t6w4q.7', result: { action: 'accept' } })
 * ```
 */
export async function forwardAnswer(directory: SharedSessionDirectory, acknowledgements: Acknowledgements, sessionId: string, instanceId: string, message: JSONRPCMessage): Promise<void> {
  const tag = newTag(directory)
  const envelope = { kind: 'response', sessionId, message, from: directory.instanceId, tag } as const
  // The last try's listeners, and whether the answer is kept for a takeover: not yet tried (or
  // Redis could not say), kept, or not a task's question (nothing to keep).
  const last: { listeners: number, keeping: 'pending' | 'kept' | 'none' } = { listeners: 0, keeping: 'pending' }
  const heard = await tryUntil(DELIVERY_DEADLINE_MS, async () => {
    const sent = await sendAcknowledged(directory, acknowledgements, instanceId, envelope, tag)
    if (sent.acknowledged) return true
    last.listeners = sent.listeners
    if (sent.listeners === 0 && last.keeping === 'pending') {
      last.keeping = await keepForTakeover(directory, sessionId, message).then(kept => (kept ? 'kept' : 'none'), () => 'pending')
    }
    return undefined
  })
  if (heard) return
  console.error(`[nuxt-mcp-elicitation] An answer for instance ${instanceId} was not delivered within ${DELIVERY_DEADLINE_MS / 1000} s: ${last.listeners > 0 ? 'it did not say it heard it' : 'it is not listening (restarting, or gone)'}. The call waiting for it ends with its own timeout${last.keeping === 'kept' ? '; the task question it answers keeps it, for the instance that takes the task over' : ''}.`)
}

/**
 * Keeps `message` as the answer of the task question it answers; `false` when the request it
 * answers was no task's question (rejects while Redis cannot say).
 */
async function keepForTakeover(directory: SharedSessionDirectory, sessionId: string, message: JSONRPCMessage): Promise<boolean> {
  if (!('result' in message) || (typeof message.id !== 'string' && typeof message.id !== 'number')) return false
  const note = await readNote(directory, sessionId, String(message.id))
  if (!note) return false
  await keepAnswer(directory.shared, note.taskId, note.key, { q: note.q, r: message.result }, note.expiresAt - Date.now())
  return true
}
