import { isJSONRPCRequest, parseJSONRPCMessage } from '@modelcontextprotocol/server'
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/server'
import { isRecord } from '../common/is-record'
import { BROADCAST_CHANNEL, instanceChannel } from '../common/shared/shared-state'
import type { McpSharedState } from '../common/shared/shared-state'
import type { UrlCompletionRelay } from '../elicitation/url-completion'
import { jsonRpcError } from './http-errors'

/** What any instance needs to serve a legacy session it did not open. No secret is in it. */
export interface SessionRecord {
  /** Who opened it: only they may use it. */
  principal?: string
  /** What the per-principal cap counts by. */
  owner: string
  /** The client's `initialize` request, replayed to the SDK server of each instance that serves the session. */
  initialize: JSONRPCRequest
  created: number
}

/** A message between instances about one legacy session. */
export type SessionEnvelope =
  /** The client's answer to a request this instance sent (its id carries this instance's tag). */
  | { kind: 'response', sessionId: string, message: JSONRPCMessage }
  /** A client notification each instance holding the session must see (`notifications/cancelled`). */
  | { kind: 'notification', sessionId: string, message: JSONRPCMessage }
  /** A server message for the session's GET stream (logging, resource updated, URL completion). */
  | { kind: 'stream', sessionId: string, message: JSONRPCMessage }
  /** The session ended (DELETE): every instance drops its copy. */
  | { kind: 'closed', sessionId: string }
  /** `completeMcpUrlElicitation()` was called on another instance for a URL flow this one asked. */
  | { kind: 'url-complete', elicitationId: string }

/** The 503 of a request that needs the shared state when it cannot be had, saying why. */
export function unavailableResponse(error: unknown): Response {
  const reason = error instanceof Error ? error.message : String(error)
  return jsonRpcError(503, -32000, `Service unavailable: legacy sessions are shared through NUXT_MCP_REDIS_URL, and ${reason.replace(/^\[nuxt-mcp-elicitation\] /, '')}`, { 'retry-after': '5' })
}

/** A message between instances that could not be sent: logged, the request goes on. */
export function logLost(error: unknown): void {
  console.error('[nuxt-mcp-elicitation] A message between instances was lost:', error instanceof Error ? error.message : error)
}

function recordKey(sessionId: string): string {
  return `session:${sessionId}`
}

function parseEnvelope(text: string): SessionEnvelope | undefined {
  try {
    const value: unknown = JSON.parse(text)
    if (isRecord(value) && value.kind === 'url-complete' && typeof value.elicitationId === 'string') return { kind: 'url-complete', elicitationId: value.elicitationId }
    if (!isRecord(value) || typeof value.sessionId !== 'string') return undefined
    if (value.kind === 'closed') return { kind: 'closed', sessionId: value.sessionId }
    if (value.kind === 'response' || value.kind === 'notification' || value.kind === 'stream') {
      return { kind: value.kind, sessionId: value.sessionId, message: parseJSONRPCMessage(value.message) }
    }
  }
  catch {
    // Not one of ours (another version of the app mid-deploy): ignored, as an unknown message.
  }
  return undefined
}

function parseRecord(text: string | undefined): SessionRecord | undefined {
  if (text === undefined) return undefined
  const value: unknown = JSON.parse(text)
  if (!isRecord(value) || typeof value.owner !== 'string' || !isJSONRPCRequest(value.initialize) || typeof value.created !== 'number') return undefined
  return {
    ...(typeof value.principal === 'string' && { principal: value.principal }),
    owner: value.owner,
    initialize: value.initialize,
    created: value.created,
  }
}

/**
 * The URL-completion relay over the shared state: which instance asked each URL flow, and a
 * completion called elsewhere handed to it.
 *
 * @example
 * ```ts
 * relayUrlCompletions(createUrlCompletionRelay(directory, completeLocalUrlElicitation))
 * ```
 */
export function createUrlCompletionRelay(directory: SharedSessionDirectory, completeHere: (elicitationId: string) => Promise<boolean>): UrlCompletionRelay {
  const key = (id: string) => `url:${id}`
  const lost = (error: unknown) => console.error('[nuxt-mcp-elicitation] A URL elicitation could not be recorded for the other instances:', error instanceof Error ? error.message : error)
  return {
    remember: (id, windowMs) => void directory.shared.put(key(id), directory.instanceId, windowMs).catch(lost),
    forget: id => void directory.shared.delete(key(id)).catch(lost),
    complete: async (id) => {
      const owner = await directory.shared.get(key(id))
      if (!owner) return false
      if (owner === directory.instanceId) return completeHere(id)
      await directory.shared.delete(key(id))
      await directory.sendTo(owner, { kind: 'url-complete', elicitationId: id })
      return true
    },
  }
}

/**
 * The legacy sessions' directory shared by every instance (with `NUXT_MCP_REDIS_URL`): session
 * records that expire when a session stays idle, and the messages that carry a client's answer
 * or cancellation to the instance that waits for it.
 *
 * @example
 * ```ts
 * const directory = new SharedSessionDirectory(shared, 30 * 60_000)
 * await directory.listen(envelope => deliver(envelope))
 * ```
 */
export class SharedSessionDirectory {
  constructor(readonly shared: McpSharedState, private readonly ttlMs: number) {}

  get instanceId(): string {
    return this.shared.instanceId
  }

  save(sessionId: string, record: SessionRecord): Promise<void> {
    return this.shared.put(recordKey(sessionId), JSON.stringify(record), this.ttlMs)
  }

  async load(sessionId: string): Promise<SessionRecord | undefined> {
    return parseRecord(await this.shared.get(recordKey(sessionId)))
  }

  remove(sessionId: string): Promise<void> {
    return this.shared.delete(recordKey(sessionId))
  }

  /** Keeps the record for another idle period; `false` when it is gone. */
  touch(sessionId: string): Promise<boolean> {
    return this.shared.touch(recordKey(sessionId), this.ttlMs)
  }

  sendTo(instanceId: string, envelope: SessionEnvelope): Promise<void> {
    return this.shared.publish(instanceChannel(instanceId), JSON.stringify(envelope))
  }

  broadcast(envelope: SessionEnvelope): Promise<void> {
    return this.shared.publish(BROADCAST_CHANNEL, JSON.stringify(envelope))
  }

  /** Receives the envelopes sent to this instance and to all. */
  async listen(receive: (envelope: SessionEnvelope) => void): Promise<void> {
    const deliver = (text: string) => {
      const envelope = parseEnvelope(text)
      if (envelope) receive(envelope)
    }
    await this.shared.subscribe(instanceChannel(this.instanceId), deliver)
    await this.shared.subscribe(BROADCAST_CHANNEL, deliver)
  }
}
