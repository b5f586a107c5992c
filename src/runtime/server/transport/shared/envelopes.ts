import { parseJSONRPCMessage } from '@modelcontextprotocol/server'
import type { JSONRPCMessage } from '@modelcontextprotocol/server'
import { isRecord } from '../../common/is-record'

/** A message between instances about one legacy session. */
export type SessionEnvelope =
  /**
   * The client's answer to a request this instance sent (its id carries this instance's tag);
   * with `from` and `tag`, acknowledged to `from` (`applied`) once heard, and heard once.
   */
  | { kind: 'response', sessionId: string, message: JSONRPCMessage, from?: string, tag?: string }
  /**
   * A client message each instance holding the session must see (`notifications/cancelled`,
   * `logging/setLevel`); with `from` and `tag`, each instance says `applied` to `from` once it has.
   */
  | { kind: 'notification', sessionId: string, message: JSONRPCMessage, from?: string, tag?: string }
  /** The instance that sent the notification `tag` learns that this one applied it. */
  | { kind: 'applied', tag: string }
  /**
   * A server message for the session's GET stream (logging, resource updated, URL completion).
   * With `from` and `tag` (a question, sent to the holder alone), the holder keeps it and says
   * `applied` to `from`.
   */
  | { kind: 'stream', sessionId: string, message: JSONRPCMessage, from?: string, tag?: string }
  /** Instance `streamId` names took the session's GET stream: one that held it before stops keeping its events. */
  | { kind: 'get-held', sessionId: string, streamId: string }
  /** The session ended (DELETE): every instance drops its copy. */
  | { kind: 'closed', sessionId: string }
  /** `completeMcpUrlElicitation()` was called on another instance for a URL flow this one asked. */
  | { kind: 'url-complete', elicitationId: string }
  /** A client resumed, on instance `to`, a stream this instance runs: send its events after `after` there, tagged `tag`. */
  | { kind: 'resume', sessionId: string, streamId: string, after: number, to: string, tag: string }
  /** One event of a stream resumed on the receiving instance. */
  | { kind: 'stream-event', tag: string, seq: number, message: JSONRPCMessage }
  /** A stream resumed on the receiving instance has no more events (its requests are answered, or it is unknown). */
  | { kind: 'stream-end', tag: string }
  /** The instance that runs a stream took the resume request `tag`: its events follow. */
  | { kind: 'stream-ack', tag: string }
  /** The client that resumed a stream of this instance elsewhere went away again. */
  | { kind: 'resume-dropped', sessionId: string, streamId: string, tag: string }

/** The envelopes the shared link serves itself: resumed streams, and acknowledgements. */
export type StreamEnvelope = Extract<SessionEnvelope, { kind: 'resume' | 'stream-event' | 'stream-end' | 'stream-ack' | 'resume-dropped' | 'applied' }>
/** The envelopes the sessions act on. */
export type SessionUpdate = Exclude<SessionEnvelope, StreamEnvelope>

type Parse = (value: Record<string, unknown>) => SessionEnvelope | undefined

const str = (value: unknown): value is string => typeof value === 'string'

/** How each kind is read back, checking every field: another version of the app may be mid-deploy. */
const PARSERS: Record<SessionEnvelope['kind'], Parse> = {
  'response': v => str(v.sessionId) ? { kind: 'response', sessionId: v.sessionId, message: parseJSONRPCMessage(v.message), ...(str(v.from) && str(v.tag) && { from: v.from, tag: v.tag }) } : undefined,
  'notification': v => str(v.sessionId) ? { kind: 'notification', sessionId: v.sessionId, message: parseJSONRPCMessage(v.message), ...(str(v.from) && str(v.tag) && { from: v.from, tag: v.tag }) } : undefined,
  'applied': v => str(v.tag) ? { kind: 'applied', tag: v.tag } : undefined,
  'stream': v => str(v.sessionId) ? { kind: 'stream', sessionId: v.sessionId, message: parseJSONRPCMessage(v.message), ...(str(v.from) && str(v.tag) && { from: v.from, tag: v.tag }) } : undefined,
  'get-held': v => str(v.sessionId) && str(v.streamId) ? { kind: 'get-held', sessionId: v.sessionId, streamId: v.streamId } : undefined,
  'closed': v => str(v.sessionId) ? { kind: 'closed', sessionId: v.sessionId } : undefined,
  'url-complete': v => str(v.elicitationId) ? { kind: 'url-complete', elicitationId: v.elicitationId } : undefined,
  'resume': v => str(v.sessionId) && str(v.streamId) && typeof v.after === 'number' && str(v.to) && str(v.tag)
    ? { kind: 'resume', sessionId: v.sessionId, streamId: v.streamId, after: v.after, to: v.to, tag: v.tag }
    : undefined,
  'stream-event': v => str(v.tag) && typeof v.seq === 'number' ? { kind: 'stream-event', tag: v.tag, seq: v.seq, message: parseJSONRPCMessage(v.message) } : undefined,
  'stream-end': v => str(v.tag) ? { kind: 'stream-end', tag: v.tag } : undefined,
  'stream-ack': v => str(v.tag) ? { kind: 'stream-ack', tag: v.tag } : undefined,
  'resume-dropped': v => str(v.sessionId) && str(v.streamId) && str(v.tag) ? { kind: 'resume-dropped', sessionId: v.sessionId, streamId: v.streamId, tag: v.tag } : undefined,
}

/**
 * Reads an envelope another instance published; `undefined` for anything that is not one of
 * ours (ignored, as an unknown message would be).
 *
 * @example
 * ```ts
 * parseEnvelope('{"kind":"closed","sessionId":"…"}') // { kind: 'closed', sessionId: '…' }
 * ```
 */
export function parseEnvelope(text: string): SessionEnvelope | undefined {
  try {
    const value: unknown = JSON.parse(text)
    if (!isRecord(value) || typeof value.kind !== 'string' || !Object.hasOwn(PARSERS, value.kind)) return undefined
    return PARSERS[value.kind as SessionEnvelope['kind']](value)
  }
  catch {
    return undefined
  }
}
