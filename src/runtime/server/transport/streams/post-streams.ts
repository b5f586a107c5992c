import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server'
import { openSseStream } from './sse'
import type { SseStream } from './sse'
import type { ResponseSink } from '../http/response-sink'
import { RESUME_GRACE_MS, RESUME_RETRY_MS, StreamJournal, eventIdOf } from './journal'
import { JournalShelf } from './journal-shelf'
import type { JournalBudget } from './journal-budget'
import type { ShelvedStream } from './journal-shelf'
import type { JournalEvent, JournalSink } from './journal'
import { isResponse } from './message-kinds'

/** Ends a request's wait for good when its client is gone: the request scope's abort. */
export type AbandonRequest = () => void

/** One POST's event stream and the requests whose responses it still owes. */
interface PostStream extends ShelvedStream {
  /** The connection the events go to; none while a resumable stream waits for its client to come back. */
  stream?: SseStream
  waiting: Set<RequestId>
  journal?: StreamJournal
  /** Takes over the abort of the stream's requests from the connection (see {@link LegacyExchange.deferAbort}). */
  deferAbort?: () => AbandonRequest
  /** Keeps the POST counted in flight past its connection (see {@link LegacyExchange.holdInFlight}). */
  holdInFlight?: () => () => void
  /** Ends that hold. */
  unhold?: () => void
  abandon?: AbandonRequest
  grace?: ReturnType<typeof setTimeout>
  /**
   * Where events go too: clients that resumed the stream on other instances, by tag. Several,
   * and none of them ends the local connection: a resume request from another instance may
   * arrive after its client already dropped it and came back here (pub/sub is not ordered with
   * this instance's own requests), and must not cut the connection the client holds now. A
   * stale target costs an event the other instance drops; its `resume-dropped` removes it.
   */
  remotes: Map<string, ResumeTarget>
}

/** How a stream resumed on another instance gets its events. */
export interface ResumeTarget {
  /** Names this resumption: a later one replaces it, and only its own drop counts. */
  tag: string
  /** Receives each event after the one the client has, then the live ones. */
  deliver: (event: JournalEvent) => void
  /** The stream's requests are all answered: end the connection. */
  end: () => void
}

/**
 * The POST response streams of one legacy session. A stream whose answer is not ready at once
 * becomes resumable for sessions that negotiated 2025-11-25 or later: it starts with a priming
 * event and numbers its events, and when its connection drops the requests go on for
 * {@link RESUME_GRACE_MS}, their events kept, until the client resumes with `GET` +
 * `Last-Event-ID` ({@link PostStreams.resumeHere}, or another instance's {@link PostStreams.resumeFor}). Older clients cannot parse a priming event's
 * empty data, so theirs stay plain.
 *
 * @example
 * ```ts
 * const streams = new PostStreams('local')
 * streams.open(res, [1], { 'mcp-session-id': id })
 * streams.send({ jsonrpc: '2.0', id: 1, result: {} })
 * ```
 */
export class PostStreams {
  private readonly byRequest = new Map<RequestId, PostStream>()
  /** The resumable streams kept, within the session's bounds; a forgotten one's requests are unmapped. */
  private readonly journals: JournalShelf<PostStream>

  private count = 0
  /** Whether the session negotiated a version whose clients resume (2025-11-25 or later). */
  resumable = false

  /**
   * @param instanceTag Starts every stream id, so that ids stay unique across instances.
   * @param budget The process's budget for every session's resumable streams (`mcp.sessions.maxResumableBytes`).
   */
  constructor(private readonly instanceTag: string, private readonly sink?: JournalSink, budget?: JournalBudget) {
    this.journals = new JournalShelf<PostStream>((entry) => {
      for (const id of entry.waiting) if (this.byRequest.get(id) === entry) this.byRequest.delete(id)
      if (entry.journal) this.sink?.forgotten?.(entry.journal)
    }, budget)
  }

  /**
   * Opens the SSE response of a POST that carries `requests`. `deferAbort` lets a resumable
   * stream keep its requests running when the connection drops.
   */
  open(res: ResponseSink, requests: RequestId[], headers: Record<string, string>, control: Pick<PostStream, 'deferAbort' | 'holdInFlight'> = {}): void {
    const entry: PostStream = { waiting: new Set(requests), remotes: new Map(), deferAbort: control.deferAbort, holdInFlight: control.holdInFlight }
    entry.stream = this.attach(entry, res, headers, false)
    for (const id of requests) this.byRequest.set(id, entry)
  }

  private attach(entry: PostStream, res: ResponseSink, headers: Record<string, string>, flushNow: boolean): SseStream {
    const stream: SseStream = openSseStream(res, {
      headers,
      flushNow,
      onFlush: () => this.makeResumable(entry),
      onClose: () => this.dropped(entry, stream),
    })
    return stream
  }

  /**
   * Sends a message about one request on its stream. Throws when a question cannot reach the
   * client (its stream is gone for good); an answer with nowhere to go is dropped.
   */
  send(message: JSONRPCMessage, id: RequestId): void {
    const entry = this.byRequest.get(id)
    if (!isResponse(message)) {
      if (!entry) throw new Error(`No open stream for request ${String(id)}: the client closed it.`)
      this.makeResumable(entry)
      if (!this.emit(entry, message)) throw new Error(`No open stream for request ${String(id)}: the client closed it.`)
      return
    }
    if (!entry) return
    this.byRequest.delete(id)
    entry.waiting.delete(id)
    const last = entry.waiting.size === 0
    if (!entry.journal) {
      if (last) entry.stream?.end(message)
      else entry.stream?.write(message)
      return
    }
    this.emit(entry, message)
    if (last) this.finish(entry)
  }

  /**
   * Resumes a stream this instance holds on a new connection (`GET` + `Last-Event-ID`): the
   * events after `seq` first, then the live ones. `false` when the stream is not known here
   * (another instance's, or forgotten).
   */
  resumeHere(streamId: string, seq: number, res: ResponseSink, headers: Record<string, string>): boolean {
    const entry = this.takeOver(streamId, 'here')
    if (!entry?.journal) return false
    const stream = this.attach(entry, res, headers, true)
    // Primed again with the id the client resumed from: should this connection drop too before
    // any event, the SDK clients resume from the id of the last event seen on *this* connection,
    // and without one they would open a plain GET and lose the stream (found by the chaos run).
    stream.prime(eventIdOf(entry.journal.streamId, seq), RESUME_RETRY_MS)
    for (const event of entry.journal.after(seq)) stream.write(event.message, eventIdOf(entry.journal.streamId, event.seq))
    if (entry.waiting.size > 0) entry.stream = stream
    else {
      stream.end()
      this.journals.finished(entry, true)
    }
    return true
  }

  /** Resumes a stream this instance holds for a client that came back on another instance. */
  resumeFor(streamId: string, seq: number, target: ResumeTarget): boolean {
    const entry = this.takeOver(streamId, 'elsewhere')
    if (!entry?.journal) return false
    for (const event of entry.journal.after(seq)) target.deliver(event)
    if (entry.waiting.size > 0) entry.remotes.set(target.tag, target)
    else {
      target.end()
      this.journals.finished(entry, true)
    }
    return true
  }

  /** The client that resumed on another instance went away again: the requests wait out the grace once more. */
  remoteDropped(streamId: string, tag: string): void {
    const entry = this.journals.get(streamId)
    if (!entry?.remotes.delete(tag) || entry.waiting.size === 0 || entry.stream || entry.remotes.size > 0) return
    this.armGrace(entry)
  }

  /**
   * The stream's entry, out of its grace. A client back `here` replaces the local connection
   * (one per client, and the old one is gone or going); one back `elsewhere` is added beside it
   * (see {@link PostStream.remotes}).
   */
  private takeOver(streamId: string, where: 'here' | 'elsewhere'): PostStream | undefined {
    const entry = this.journals.get(streamId)
    if (!entry) return undefined
    clearTimeout(entry.grace)
    if (where === 'here') {
      const old = entry.stream
      entry.stream = undefined
      old?.end()
    }
    return entry
  }

  /**
   * Ends every stream (the session closed here). Their copies go only when the session `ended`
   * everywhere (DELETE, made room for, or ended on another instance): a session closed here
   * alone (this process stopping, as in a rolling deploy, or gone idle here) lives on in Redis,
   * and the instance its client resumes on answers from those copies ("stopped before it answered").
   */
  closeAll(ended = false): void {
    for (const entry of new Set([...this.byRequest.values(), ...this.journals.values()])) {
      clearTimeout(entry.grace)
      entry.unhold?.()
      entry.stream?.end()
      for (const remote of entry.remotes.values()) remote.end()
      if (ended && entry.journal) this.sink?.forgotten?.(entry.journal)
    }
    this.byRequest.clear()
    this.journals.clear()
  }

  private makeResumable(entry: PostStream): void {
    if (!this.resumable || entry.journal || !entry.stream || entry.stream.closed) return
    // At the session's cap of streams still running, this one stays plain: its answer goes out
    // as usual, and only a drop of its connection would lose it.
    if (!this.journals.makeRoom()) return
    const journal = new StreamJournal(`${this.instanceTag}.s${++this.count}`, [...entry.waiting], this.sink)
    // From now on a dropped connection is not the end of the requests: the grace decides.
    entry.abandon = entry.deferAbort?.()
    entry.unhold = entry.holdInFlight?.()
    entry.journal = journal
    this.journals.add(entry)
    entry.stream.prime(journal.primingId, RESUME_RETRY_MS)
  }

  /** Records `message` and writes it where the stream's client is; false when it has none and never will. */
  private emit(entry: PostStream, message: JSONRPCMessage): boolean {
    if (!entry.journal) return entry.stream?.write(message) ?? false
    const event = entry.journal.record(message)
    this.journals.fit(entry)
    entry.stream?.write(message, eventIdOf(entry.journal.streamId, event.seq))
    for (const remote of entry.remotes.values()) remote.deliver(event)
    return true
  }

  private finish(entry: PostStream): void {
    clearTimeout(entry.grace)
    if (entry.journal) this.journals.finished(entry, (entry.stream !== undefined && !entry.stream.closed) || entry.remotes.size > 0)
    entry.unhold?.()
    entry.stream?.end()
    for (const remote of entry.remotes.values()) remote.end()
    entry.remotes.clear()
  }

  /**
   * The connection closed. A resumable stream with requests left waits for its client; any
   * other's requests have nowhere to answer (the connection's own watch aborts them).
   */
  private dropped(entry: PostStream, stream: SseStream): void {
    if (entry.stream !== stream) return
    entry.stream = undefined
    if (entry.journal && entry.waiting.size > 0) return this.armGrace(entry)
    if (!entry.journal) for (const id of entry.waiting) this.byRequest.delete(id)
  }

  private armGrace(entry: PostStream): void {
    clearTimeout(entry.grace)
    entry.grace = setTimeout(() => {
      if (entry.stream || entry.remotes.size > 0 || entry.waiting.size === 0) return
      // The requests stay mapped: the answers the abort brings (cancelled waits) are journaled
      // and end the stream, for a client that comes back later still.
      this.journals.abandoned(entry)
      entry.abandon?.()
      entry.unhold?.()
    }, RESUME_GRACE_MS)
    entry.grace.unref?.()
  }
}
