// The four ways in the chaos run drives: the v1 SDK `Client` (what most shipping hosts embed), the
// v2 SDK `Client` on a legacy session and pinned to the stateless 2026-07-28 revision, and
// Claude Desktop's bridge, mcp-remote, spawned over stdio. Each names its principal in `x-user`
// (the shared-state fixture's `mcp:auth` hook) and answers every question with a reply derived from it.
import { connectMcpRemote, connectV1, connectV2 } from '../mcp-clients.mjs'

/** The client kinds, in the order the table prints them. */
export const CLIENT_KINDS = ['v1', 'v2-legacy', 'v2-modern', 'mcp-remote']

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
    default: throw new Error(`Unknown chaos client kind "${kind}": one of ${CLIENT_KINDS.join(', ')}.`)
  }
}
