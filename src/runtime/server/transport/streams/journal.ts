import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server'
import { isResponse } from './message-kinds'

/** The `retry:` hint of a priming event: how long a client waits before it resumes a dropped stream. */
export const RESUME_RETRY_MS = 1000
/**
 * How long a request whose stream dropped keeps running, waiting for its client to resume it
 * (`GET` + `Last-Event-ID`), before it is abandoned as if cancelled. SDK clients retry twice,
 * a `retry:` apart: this covers both attempts.
 */
export const RESUME_GRACE_MS = 5000
/** How long a stream's events are kept for a client to resume it, after its last event. */
export const JOURNAL_TTL_MS = 5 * 60_000
/** At most this many events are kept per stream (progress pings are the usual bulk): the oldest go first. */
export const MAX_EVENTS = 500

/** One event of a resumable stream: its number within the stream, and the message it carried. */
export interface JournalEvent {
  seq: number
  message: JSONRPCMessage
}

/** Where a stream's events also go, besides its own connection: a shared log, another instance. */
export interface JournalSink {
  /** The stream became resumable, with these events so far (the priming event is number 0). */
  opened: (journal: StreamJournal) => void
  appended: (journal: StreamJournal, event: JournalEvent) => void
  /** The stream was forgotten here (its answer taken, or made room for, or its session ended everywhere): its copy may go too. */
  forgotten?: (journal: StreamJournal) => void
}

/** What counts a journal's size (its session's share, the process's budget): told each change of it. */
export interface JournalAccount {
  /** The journal's size changed by `delta` characters (an event kept, or one shed). */
  resized: (delta: number) => void
}

/** `<streamId>_<seq>`: the event id the client sends back as `Last-Event-ID`. */
export function eventIdOf(streamId: string, seq: number): string {
  return `${streamId}_${seq}`
}

/** Splits a `Last-Event-ID` into the stream it names and the last event the client has; `undefined` when it is not one of ours. */
export function parseEventId(id: string): { streamId: string, seq: number } | undefined {
  const match = /^([a-z0-9]+\.[sg]\d+)_(\d+)$/.exec(id)
  return match ? { streamId: match[1]!, seq: Number(match[2]) } : undefined
}

/** The instance tag a stream id starts with (`<instanceId>.s<n>` for a POST stream, `.g<n>` for a GET stream). */
export function instanceOfStream(streamId: string): string {
  return streamId.slice(0, streamId.indexOf('.'))
}

/** Whether `streamId` names a GET stream's journal (`<instanceId>.g<n>`). */
export function isGetStream(streamId: string): boolean {
  return /\.g\d+$/.test(streamId)
}

/** Whether `message` is the answer to one of `requests` (the stream's end when it is the last). */
export function answers(message: JSONRPCMessage, requests: readonly RequestId[]): boolean {
  return isResponse(message) && requests.includes(message.id)
}

/**
 * The events of one POST stream that stayed open, numbered, so that a client whose connection
 * dropped can resume it from the last one it has: kept in this process while the stream lives
 * and a while after (`journal-shelf.ts` says how long, and the session's bounds), and handed to a
 * {@link JournalSink} when several instances share the session.
 *
 * @example
 * ```ts
 * const journal = new StreamJournal('abc.s1', [7])
 * const event = journal.record({ jsonrpc: '2.0', id: 7, result: {} })
 * eventIdOf(journal.streamId, event.seq) // 'abc.s1_1'
 * ```
 */
export class StreamJournal {
  private readonly events: JournalEvent[] = []
  private readonly sizes = new WeakMap<JournalEvent, number>()
  private next = 1
  /** When the last event was recorded: the journal is dropped {@link JOURNAL_TTL_MS} later. */
  lastUsed = Date.now()
  /** The size of the events kept, in characters of their JSON (what a session's budget counts). */
  size = 0
  /** Told of every change of {@link size}, so that budgets keep running totals instead of summing (`journal-budget.ts`). */
  account?: JournalAccount

  constructor(readonly streamId: string, readonly requests: readonly RequestId[], private readonly sink?: JournalSink) {
    sink?.opened(this)
  }

  /** The priming event's id: event 0, before any message. */
  get primingId(): string {
    return eventIdOf(this.streamId, 0)
  }

  /** Numbers `message` as the stream's next event and keeps it. */
  record(message: JSONRPCMessage): JournalEvent {
    const event = { seq: this.next++, message }
    const size = JSON.stringify(message).length
    this.events.push(event)
    this.sizes.set(event, size)
    this.size += size
    this.account?.resized(size)
    if (this.events.length > MAX_EVENTS) this.shed()
    this.lastUsed = Date.now()
    this.sink?.appended(this, event)
    return event
  }

  /**
   * Drops one kept event to make room: a progress ping if there is one (a question or an answer
   * dropped would leave a client waiting), else the oldest. Never the last event; `false` when
   * only that one is left.
   */
  shed(): boolean {
    if (this.events.length <= 1) return false
    const ping = this.events.findIndex(kept => 'method' in kept.message && !('id' in kept.message))
    const [dropped] = this.events.splice(ping >= 0 && ping < this.events.length - 1 ? ping : 0, 1)
    const size = (dropped && this.sizes.get(dropped)) ?? 0
    this.size -= size
    this.account?.resized(-size)
    return true
  }

  /** The events after `seq`, in order. */
  after(seq: number): JournalEvent[] {
    return this.events.filter(event => event.seq > seq)
  }
}
