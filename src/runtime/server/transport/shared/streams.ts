import { parseJSONRPCMessage } from '@modelcontextprotocol/server'
import type { RequestId } from '@modelcontextprotocol/server'
import { isRecord } from '../../common/is-record'
import { byteCountKey } from '../../cluster/shared-state'
import type { McpSharedState } from '../../cluster/shared-state'
import { BEAT_EVERY_MS, beat, isAlive } from '../../cluster/liveness'
import { logLost } from './sessions'
import { DELIVERY_DEADLINE_MS, tryUntil } from '../../cluster/try-until'
import { JOURNAL_TTL_MS, MAX_EVENTS } from '../streams/journal'
import type { JournalEvent, JournalSink } from '../streams/journal'

/**
 * How long an instance's heartbeat must stay missing before it counts as dead: longer than one
 * beat, so that a Redis that restarted empty (every heartbeat gone at once) is not read as every
 * instance dying.
 */
export const DEAD_AFTER_MISSING_MS = BEAT_EVERY_MS + 1500

/**
 * Most bytes of events one stream's copy keeps (besides its head, and its newest event whatever
 * its size), as well as at most {@link MAX_EVENTS}: a copy is read back only when the instance
 * that ran the stream is gone (for the answers it kept) or for a GET stream's replay, and the
 * newest events are what those need. With the copies of forgotten streams removed, a session's
 * copies are those of the streams its instances keep (32 a session, and its GET streams').
 */
export const MAX_COPY_BYTES = 1024 * 1024

function eventsKey(sessionId: string, streamId: string): string {
  return `events:${sessionId}:${streamId}`
}

function getHolderKey(sessionId: string): string {
  return `get-holder:${sessionId}`
}

/** A stream's kept events, as another instance reads them back. */
export interface KeptStream {
  requests: RequestId[]
  events: JournalEvent[]
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || typeof value === 'number'
}

function parseKept(items: string[]): KeptStream | undefined {
  const [head, ...rest] = items.map((item): unknown => JSON.parse(item))
  if (!isRecord(head) || !Array.isArray(head.requests)) return undefined
  const events: JournalEvent[] = []
  for (const item of rest) {
    if (isRecord(item) && typeof item.seq === 'number') events.push({ seq: item.seq, message: parseJSONRPCMessage(item.message) })
  }
  return { requests: head.requests.filter(isRequestId), events }
}

/** Appends `value` to the list `key`, tried again every 200 ms for 10 s while Redis cannot take it; then logged as lost. */
async function appendSurely(shared: McpSharedState, key: string, value: string, keepLast?: number): Promise<void> {
  let failure: unknown
  const copied = await tryUntil(DELIVERY_DEADLINE_MS, () => shared.append(key, [value], JOURNAL_TTL_MS, keepLast, keepLast === undefined ? undefined : MAX_COPY_BYTES).then(() => true, (error: unknown) => {
    failure = error
    return undefined
  }))
  if (!copied) logLost(failure)
}

/**
 * The resumable streams' events, kept in the shared state so that another instance can finish
 * a stream for its client when the instance that ran it is gone; and each instance's
 * heartbeat, which says whether it is. Only streams that stayed open are kept (an answer ready
 * at once costs no Redis command), each for {@link JOURNAL_TTL_MS} after its last event.
 *
 * @example
 * ```ts
 * const log = new SharedStreamLog(shared)
 * const stop = log.beat()
 * const kept = await log.read(sessionId, 'abc.s1')
 * ```
 */
export class SharedStreamLog {
  /** Each stream's copy still being written, by key: its writes go in order. */
  private readonly writes = new Map<string, Promise<void>>()

  constructor(private readonly shared: McpSharedState) {}

  /**
   * Where one session's journals copy their events. Never waits; each stream's copies are written
   * in order, each tried again while Redis is away ({@link appendSurely}): a copy matters only if
   * this instance dies, and then most when Redis restarted just before (a stream opened meanwhile
   * would otherwise have no head, the requests a resume elsewhere must answer).
   */
  sink(sessionId: string): JournalSink {
    return {
      opened: journal => this.appendInOrder(eventsKey(sessionId, journal.streamId), JSON.stringify({ requests: journal.requests })),
      // As many events as a journal keeps here, after the head (the stream's requests) a resume
      // on another instance needs: a session's GET stream would otherwise grow for its life.
      appended: (journal, event) => this.appendInOrder(eventsKey(sessionId, journal.streamId), JSON.stringify(event), MAX_EVENTS),
      forgotten: journal => this.forget(eventsKey(sessionId, journal.streamId)),
    }
  }

  /**
   * Resolves once the copies of stream `streamId` made so far are written (or given up).
   *
   * @example
   * ```ts
   * await log.written(sessionId, journal.streamId)
   * ```
   */
  async written(sessionId: string, streamId: string): Promise<void> {
    await this.writes.get(eventsKey(sessionId, streamId))
  }

  private appendInOrder(key: string, value: string, keepLast?: number): void {
    this.inOrder(key, () => appendSurely(this.shared, key, value, keepLast))
  }

  /** Removes a forgotten stream's copy, after the copies still being written (which would bring it back); once, and logged when Redis is away (it expires anyway). */
  private forget(key: string): void {
    this.inOrder(key, () => Promise.all([this.shared.delete(key), this.shared.delete(byteCountKey(key))]).then(() => {}, logLost))
  }

  /** Runs `write` after the writes of `key` still under way. */
  private inOrder(key: string, write: () => Promise<void>): void {
    const next = (this.writes.get(key) ?? Promise.resolve()).then(write)
    this.writes.set(key, next)
    void next.then(() => {
      if (this.writes.get(key) === next) this.writes.delete(key)
    })
  }

  /** Keeps `events` after a stream's others (answers given for a dead instance). */
  keep(sessionId: string, streamId: string, events: JournalEvent[]): Promise<void> {
    return this.shared.append(eventsKey(sessionId, streamId), events.map(event => JSON.stringify(event)), JOURNAL_TTL_MS, MAX_EVENTS, MAX_COPY_BYTES)
  }

  /** A stream's kept events; `undefined` when none are kept (never resumable, or expired). */
  async read(sessionId: string, streamId: string): Promise<KeptStream | undefined> {
    return parseKept(await this.shared.list(eventsKey(sessionId, streamId)))
  }

  /** Records that journal `streamId` now keeps the session's GET stream (before it is announced). */
  hold(sessionId: string, streamId: string): Promise<void> {
    return this.shared.put(getHolderKey(sessionId), streamId, JOURNAL_TTL_MS)
  }

  /** The journal that took the session's GET stream last; `undefined` when none did within {@link JOURNAL_TTL_MS}. */
  holder(sessionId: string): Promise<string | undefined> {
    return this.shared.get(getHolderKey(sessionId))
  }

  /** Starts this instance's heartbeat; returns what stops it. */
  beat(): () => void {
    return beat(this.shared, logLost)
  }

  /** Whether `instanceId` has beaten lately (cluster/liveness.ts). */
  isAlive(instanceId: string): Promise<boolean> {
    return isAlive(this.shared, instanceId)
  }
}
