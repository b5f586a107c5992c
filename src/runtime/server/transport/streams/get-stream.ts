import type { JSONRPCMessage } from '@modelcontextprotocol/server'
import { openSseStream } from './sse'
import type { SseStream } from './sse'
import type { ResponseSink } from '../http/response-sink'
import { RESUME_RETRY_MS, StreamJournal, eventIdOf } from './journal'
import type { JournalEvent, JournalSink } from './journal'
import type { JournalBudget } from './journal-budget'

/**
 * The standalone `GET` stream of one legacy session: server messages unrelated to a request
 * (logging, resource updates, URL completions). For sessions that negotiated 2025-11-25 or later
 * it is primed and numbered like a POST stream, and its journal outlives the connection: what is
 * raised here while no GET stream is open is kept, and a client that comes back with
 * `Last-Event-ID` gets it first. Unlike a POST stream it never ends by itself.
 *
 * @example
 * ```ts
 * const get = new GetStream(() => 'abc.g1')
 * get.open(res, headers, true)
 * get.write({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } })
 * ```
 */
export class GetStream {
  private stream?: SseStream
  private journal?: StreamJournal
  /** How many connections were attached: a check begun before the latest one is stale. */
  private attached = 0

  /**
   * @param nextStreamId Names a new journal (`<instance>.g<n>`).
   * @param held Told each time a connection takes the stream here, with its journal: the other
   * instances then stop keeping events of theirs ({@link retireUnless}).
   * @param budget The process's budget for every session's resumable streams: the journal counts
   * towards it, and sheds its oldest events when the budget is over (it never finishes, so it is
   * never forgotten whole).
   */
  constructor(private readonly nextStreamId: () => string, private readonly sink?: JournalSink, private readonly held?: (streamId: string) => void, private readonly budget?: JournalBudget) {}

  /** Whether a GET stream is open here now. */
  get isOpen(): boolean {
    return this.stream !== undefined && !this.stream.closed
  }

  /**
   * Opens the GET stream on `res`. `replay` (events a client missed, with their own stream's id)
   * goes out first; with `resumable` the stream is then primed under a journal of its own.
   */
  open(res: ResponseSink, headers: Record<string, string>, resumable: boolean, replay: { streamId: string, events: JournalEvent[] } = { streamId: '', events: [] }): void {
    const stream = this.attach(res, headers)
    for (const event of replay.events) stream.write(event.message, eventIdOf(replay.streamId, event.seq))
    if (!resumable) return
    this.drop()
    this.journal = new StreamJournal(this.nextStreamId(), [], this.sink)
    this.budget?.hold(this.journal, () => {})
    stream.prime(this.journal.primingId, RESUME_RETRY_MS)
    this.held?.(this.journal.streamId)
  }

  /**
   * Resumes the GET stream from this instance's own journal `streamId`, after event `seq`.
   * `false` when that journal is not (or no longer) this one's.
   */
  resumeHere(streamId: string, seq: number, res: ResponseSink, headers: Record<string, string>): boolean {
    const journal = this.journal
    if (journal?.streamId !== streamId) return false
    const stream = this.attach(res, headers)
    for (const event of journal.after(seq)) stream.write(event.message, eventIdOf(journal.streamId, event.seq))
    this.held?.(journal.streamId)
    return true
  }

  /**
   * Another instance took the session's GET stream: unless `currentHolder` (read from the shared
   * state, where each taking is written before it is announced) still names this instance's
   * journal, the journal is dropped and a connection still open here ends. Announcements cross
   * instances in no particular order, so the shared record decides, not the announcement; and a
   * connection attached here after the check began wins over it.
   */
  async retireUnless(currentHolder: () => Promise<string | undefined>): Promise<void> {
    const mine = this.journal?.streamId
    const attached = this.attached
    if (mine === undefined) return
    const holder = await currentHolder()
    // (Unknown: the record expired or could not be read. Keeping events costs less than losing them.)
    if (holder === undefined || holder === mine || this.attached !== attached || this.journal?.streamId !== mine) return
    this.close()
  }

  /** Stops keeping the journal: its events go, and the process's budget stops counting them. */
  private drop(): void {
    if (this.journal) this.budget?.release(this.journal)
    this.journal = undefined
  }

  /** Makes a new connection the GET stream; one still open (a client that came back before it noticed the drop) ends. */
  private attach(res: ResponseSink, headers: Record<string, string>): SseStream {
    this.attached++
    const previous = this.stream
    const stream: SseStream = openSseStream(res, {
      headers,
      flushNow: true,
      onClose: () => {
        if (this.stream === stream) this.stream = undefined
      },
    })
    this.stream = stream
    previous?.end()
    return stream
  }

  /**
   * Writes `message` to the open GET stream, and keeps it in the journal (open or not). `false`
   * when no GET stream is open here: the caller may hand it to the instance that holds one.
   */
  write(message: JSONRPCMessage): boolean {
    const event = this.journal?.record(message)
    if (this.journal) this.budget?.fit(this.journal)
    if (!this.stream || this.stream.closed) return false
    this.stream.write(message, event && this.journal ? eventIdOf(this.journal.streamId, event.seq) : undefined)
    return true
  }

  /**
   * Keeps `message` on this GET stream: in its journal, and on the connection when one is open.
   * `false` when it has neither (it never held the stream, or another instance took it).
   */
  keep(message: JSONRPCMessage): boolean {
    const recorded = this.journal !== undefined
    return this.write(message) || recorded
  }

  /** Ends the connection open here, and drops the journal (the session closed, or another instance took the stream). */
  close(): void {
    this.drop()
    this.stream?.end()
    this.stream = undefined
  }
}
