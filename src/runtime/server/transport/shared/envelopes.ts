import { parseJSONRPCMessage } from '@modelcontextprotocol/server'
import type { JSONRPCMessage } from '@modelcontextprotocol/server'
import { isRecord } from '../../common/is-record'
import { MailRefusal, defineMailKind } from '../../cluster/mailbox'

/**
 * A message between instances about one legacy session. Those meant for one instance travel as
 * letters of the mailbox ({@link SESSION_MAIL}, cluster/mailbox.ts), which tags them, takes each
 * once and acknowledges it when asked; those for every instance holding the session
 * (`notification`, `get-held`, `closed`, and a `stream` message for whichever holds the GET
 * stream) are broadcast.
 */
export type SessionEnvelope =
  /** The client's answer to a request this instance sent (its id carries this instance's tag). A letter. */
  | { kind: 'response', sessionId: string, message: JSONRPCMessage }
  /**
   * A client message each instance holding the session must see (`notifications/cancelled`,
   * `logging/setLevel`), broadcast; with `from` and `tag`, each instance says `applied` to `from` once it has.
   */
  | { kind: 'notification', sessionId: string, message: JSONRPCMessage, from?: string, tag?: string }
  /** The instance that broadcast the notification `tag` learns that this one applied it. A letter. */
  | { kind: 'applied', tag: string }
  /**
   * A server message for the session's GET stream (logging, resource updated, URL completion):
   * broadcast; or, as a letter to the instance whose journal holds the stream (a question), kept there.
   */
  | { kind: 'stream', sessionId: string, message: JSONRPCMessage }
  /** Instance `streamId` names took the session's GET stream: one that held it before stops keeping its events. */
  | { kind: 'get-held', sessionId: string, streamId: string }
  /** The session ended (DELETE): every instance drops its copy. */
  | { kind: 'closed', sessionId: string }
  /** `completeMcpUrlElicitation()` was called on another instance for a URL flow this one asked. A letter. */
  | { kind: 'url-complete', elicitationId: string }
  /** A client resumed, on instance `to`, a stream this instance runs: send its events after `after` there, tagged `tag`. A letter. */
  | { kind: 'resume', sessionId: string, streamId: string, after: number, to: string, tag: string }
  /** One event of a stream resumed on the receiving instance. A letter. */
  | { kind: 'stream-event', tag: string, seq: number, message: JSONRPCMessage }
  /** A stream resumed on the receiving instance has no more events (its requests are answered, or it is unknown). A letter. */
  | { kind: 'stream-end', tag: string }
  /** The instance that runs a stream took the resume request `tag`: its events follow. A letter. */
  | { kind: 'stream-ack', tag: string }
  /** The client that resumed a stream of this instance elsewhere went away again. A letter. */
  | { kind: 'resume-dropped', sessionId: string, streamId: string, tag: string }

/** The envelopes the shared link serves itself: resumed streams, and acknowledgements. */
export type StreamEnvelope = Extract<SessionEnvelope, { kind: 'resume' | 'stream-event' | 'stream-end' | 'stream-ack' | 'resume-dropped' | 'applied' }>
/** The envelopes the sessions act on. */
export type SessionUpdate = Exclude<SessionEnvelope, StreamEnvelope>

type Parse = (value: Record<string, unknown>) => SessionEnvelope | MailRefusal

/** The first of `fields` of `value` that is not a string, as a refusal; `undefined` when all are. */
function notStrings(value: Record<string, unknown>, ...fields: string[]): MailRefusal | undefined {
  const wrong = fields.find(field => typeof value[field] !== 'string')
  return wrong === undefined ? undefined : new MailRefusal(wrong, 'is not a string')
}

/** `value.message` as a JSON-RPC message, or the refusal naming it. */
function messageOf(value: Record<string, unknown>): JSONRPCMessage | MailRefusal {
  try {
    return parseJSONRPCMessage(value.message)
  }
  catch {
    return new MailRefusal('message', 'is not a JSON-RPC message')
  }
}

const str = (value: unknown) => String(value)

/** Reads `value.message`, then builds the envelope with it. */
function withMessage(value: Record<string, unknown>, fields: string[], build: (message: JSONRPCMessage) => SessionEnvelope): SessionEnvelope | MailRefusal {
  const wrong = notStrings(value, ...fields)
  if (wrong) return wrong
  const message = messageOf(value)
  return message instanceof MailRefusal ? message : build(message)
}

/** How each kind is read back, checking every field: another version of the app may be mid-deploy. */
const PARSERS: Record<SessionEnvelope['kind'], Parse> = {
  'response': v => withMessage(v, ['sessionId'], message => ({ kind: 'response', sessionId: str(v.sessionId), message })),
  'notification': v => withMessage(v, ['sessionId'], message => ({ kind: 'notification', sessionId: str(v.sessionId), message, ...(typeof v.from === 'string' && typeof v.tag === 'string' && { from: v.from, tag: v.tag }) })),
  'applied': v => notStrings(v, 'tag') ?? { kind: 'applied', tag: str(v.tag) },
  'stream': v => withMessage(v, ['sessionId'], message => ({ kind: 'stream', sessionId: str(v.sessionId), message })),
  'get-held': v => notStrings(v, 'sessionId', 'streamId') ?? { kind: 'get-held', sessionId: str(v.sessionId), streamId: str(v.streamId) },
  'closed': v => notStrings(v, 'sessionId') ?? { kind: 'closed', sessionId: str(v.sessionId) },
  'url-complete': v => notStrings(v, 'elicitationId') ?? { kind: 'url-complete', elicitationId: str(v.elicitationId) },
  'resume': v => notStrings(v, 'sessionId', 'streamId', 'to', 'tag') ?? (typeof v.after === 'number'
    ? { kind: 'resume', sessionId: str(v.sessionId), streamId: str(v.streamId), after: v.after, to: str(v.to), tag: str(v.tag) }
    : new MailRefusal('after', 'is not a number')),
  'stream-event': v => typeof v.seq === 'number' ? withMessage(v, ['tag'], message => ({ kind: 'stream-event', tag: str(v.tag), seq: Number(v.seq), message })) : new MailRefusal('seq', 'is not a number'),
  'stream-end': v => notStrings(v, 'tag') ?? { kind: 'stream-end', tag: str(v.tag) },
  'stream-ack': v => notStrings(v, 'tag') ?? { kind: 'stream-ack', tag: str(v.tag) },
  'resume-dropped': v => notStrings(v, 'sessionId', 'streamId', 'tag') ?? { kind: 'resume-dropped', sessionId: str(v.sessionId), streamId: str(v.streamId), tag: str(v.tag) },
}

/**
 * Reads an envelope back from its JSON value, one parser per kind; the refusal names the field.
 *
 * @example
 * ```ts
 * readEnvelope({ kind: 'closed', sessionId: '…' }) // { kind: 'closed', sessionId: '…' }
 * ```
 */
export function readEnvelope(value: Record<string, unknown>): SessionEnvelope | MailRefusal {
  if (typeof value.kind !== 'string' || !Object.hasOwn(PARSERS, value.kind)) return new MailRefusal('kind', 'is no kind of session envelope')
  return PARSERS[value.kind as SessionEnvelope['kind']](value)
}

/**
 * The letters about a legacy session meant for one instance (cluster/mailbox.ts).
 *
 * @example
 * ```ts
 * await mailbox.send(owner, SESSION_MAIL, { kind: 'url-complete', elicitationId })
 * ```
 */
export const SESSION_MAIL = defineMailKind<SessionEnvelope>('session', readEnvelope)

/**
 * Reads an envelope another instance broadcast; `undefined` for anything that is not one of
 * ours (logged with the field, and ignored, as an unknown message would be).
 *
 * @example
 * ```ts
 * parseEnvelope('{"kind":"closed","sessionId":"…"}') // { kind: 'closed', sessionId: '…' }
 * ```
 */
export function parseEnvelope(text: string): SessionEnvelope | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  }
  catch {
    return undefined
  }
  if (!isRecord(value)) return undefined
  const envelope = readEnvelope(value)
  if (!(envelope instanceof MailRefusal)) return envelope
  console.error(`[nuxt-mcp-elicitation] A message broadcast by another instance was refused: its ${envelope.field} ${envelope.problem} (kind ${JSON.stringify(value.kind)}). Another version of the app may be mid-deploy.`)
  return undefined
}
