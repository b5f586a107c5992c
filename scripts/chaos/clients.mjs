// The six ways in the chaos run drives: the v1 SDK `Client` (what most shipping hosts embed), the
// v2 SDK `Client` on a legacy session and pinned to the stateless 2026-07-28 revision, Claude
// Desktop's bridge, mcp-remote, spawned over stdio, and the call run as a task: by an
// `@modelcontextprotocol/ext-tasks` session pinned to 2026-07-28 (created, polled, its questions
// answered by tasks/update, wherever nginx sends each request) and by the v1 `Client`'s
// experimental tasks on a 2025-11-25 session (its questions pushed to the session). Each names its
// principal in `x-user` (the shared-state fixture's `mcp:auth` hook) and answers every question
// with a reply derived from it.
import { resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client'
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js'
import { connectMcpRemote, connectV1, connectV2 } from '../mcp-clients.mjs'
import { openTaskSession } from '../mcp-task-clients.mjs'

/** The client kinds, in the order the table prints them. */
export const CLIENT_KINDS = ['v1', 'v2-legacy', 'v2-modern', 'mcp-remote', 'tasks-modern', 'tasks-legacy']

const FORM = { elicitation: { form: {} } }

/** The reply a scripted person gives to `message`: derived from it, so a reply that reaches another question shows. */
export function replyTo(message) {
  return `reply to ${message}`
}

function answerWith(onQuestion) {
  return (params) => {
    const message = String(params.message)
    onQuestion(message)
    return { action: 'accept', content: { reply: replyTo(message) } }
  }
}

/** A client reduced to what a worker needs (the v1 `callTool` takes its options third, the v2 one second). */
function drive(client, era) {
  return {
    call: (args, timeout) => era === 'v1' ? client.callTool({ name: 'chaos_call', arguments: args }, undefined, { timeout }) : client.callTool({ name: 'chaos_call', arguments: args }, { timeout }),
    close: () => client.close(),
  }
}

/**
 * Connects a client of `kind` to `url` as `user`; `onQuestion(message)` hears every question it
 * answers.
 *
 * @example
 * const client = await connectChaosClient('v1', url, 'user-1', message => asked.push(message), root)
 * await client.call({ call: 'c1' }, 30_000)
 */
export async function connectChaosClient(kind, url, user, onQuestion, root) {
  const options = { name: `chaos-${kind}`, capabilities: FORM, onElicit: answerWith(onQuestion), timeout: 10_000 }
  const requestInit = { headers: { 'x-user': user } }
  switch (kind) {
    case 'v1': return drive((await connectV1(url, { ...options, requestInit })).client, 'v1')
    case 'v2-legacy': return drive((await connectV2(url, { ...options, requestInit, mode: 'legacy' })).client, 'v2')
    case 'v2-modern': return drive((await connectV2(url, { ...options, requestInit, mode: { pin: '2026-07-28' } })).client, 'v2')
    case 'mcp-remote': {
      const { client, close } = await connectMcpRemote(url, { ...options, root, headers: { 'x-user': user }, timeout: 20_000 })
      return { ...drive(client, 'v1'), close }
    }
    case 'tasks-modern': {
      const { session, close } = await openTaskSession(url, { era: 'modern', name: 'chaos-tasks-modern', capabilities: FORM, headers: { 'x-user': user }, onInput: request => answerWith(onQuestion)(request.params ?? {}) })
      return {
        call: async (args, timeout) => {
          const execution = await session.callTool('chaos_call', args, { task: { preference: 'prefer' } })
          if (execution.kind !== 'task') throw new Error(`chaos_call was not run as a task (${execution.kind}): the tasks extension was not honoured`)
          const deadline = AbortSignal.timeout(timeout)
          try {
            const { outcome } = await execution.settle({ signal: deadline })
            return resultFromTaskOutcome(outcome)
          }
          catch (error) {
            // Said the way the SDK clients say it, so the run counts it as a hang.
            if (deadline.aborted) throw new Error(`Request timed out: task ${execution.handle.taskId} did not settle within ${timeout} ms`)
            throw error
          }
        },
        close,
      }
    }
    case 'tasks-legacy': {
      // Kept 30 s (the client asks; the deadline is as long): a task a second stays under the
      // per-caller cap (100), which counts ended tasks until they expire.
      const { client } = await connectV1(url, { ...options, requestInit })
      return {
        call: async (args, timeout) => {
          let result
          for await (const message of client.experimental.tasks.callToolStream({ name: 'chaos_call', arguments: args }, CallToolResultSchema, { task: { ttl: 30_000 }, timeout })) {
            if (message.type === 'result') result = message.result
            if (message.type === 'error') throw message.error
          }
          if (!result) throw new Error('chaos_call\'s task stream ended without a result')
          return result
        },
        close: () => client.close(),
      }
    }
    default: throw new Error(`Unknown chaos client kind "${kind}": one of ${CLIENT_KINDS.join(', ')}.`)
  }
}
