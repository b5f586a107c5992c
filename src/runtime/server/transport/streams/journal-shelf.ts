import type { RequestId } from '@modelcontextprotocol/server'
import { JOURNAL_TTL_MS, RESUME_GRACE_MS } from './journal'
import type { StreamJournal } from './journal'

/** Most resumable streams one session keeps at once. */
export const MAX_JOURNALS_PER_SESSION = 32
/** Most kept events one session holds across its resumable streams, in characters of their JSON. */
export const MAX_JOURNAL_SIZE_PER_SESSION = 4 * 1024 * 1024

/** What the shelf needs of a stream it keeps. */
export interface ShelvedStream {
  journal?: StreamJournal
  /** The requests not answered yet: a stream with none (or abandoned) may be forgotten. */
  waiting: Set<RequestId>
  abandoned?: boolean
  /** When a finished stream is forgotten. */
  forget?: ReturnType<typeof setTimeout>
}

/**
 * The resumable streams one session keeps, and the bounds on them: a finished stream's journal
 * goes {@link RESUME_GRACE_MS} after its answer was written to a connection (written is not
 * received, and the final event is what resumption exists to recover), or
 * {@link JOURNAL_TTL_MS} after it when no connection was there to take it; at most
 * {@link MAX_JOURNALS_PER_SESSION} streams and {@link MAX_JOURNAL_SIZE_PER_SESSION} of events,
 * finished streams forgotten first, oldest first. A stream whose requests still run is never
 * forgotten (a person may take ten minutes): at the count cap a new stream is not made
 * resumable, and past the size cap the growing stream sheds its own oldest events.
 *
 * @example
 * ```ts
 * const shelf = new JournalShelf(entry => unmap(entry))
 * if (shelf.makeRoom()) shelf.add(entry)
 * ```
 */
export class JournalShelf<S extends ShelvedStream> {
  private readonly streams = new Map<string, S>()

  /** @param onForget Called for each stream forgotten (its requests' mappings go with it). */
  constructor(private readonly onForget: (stream: S) => void) {}

  get(streamId: string): S | undefined {
    return this.streams.get(streamId)
  }

  get size(): number {
    return this.streams.size
  }

  /** Whether one more stream may be kept, after forgetting the oldest finished ones that are in the way. */
  makeRoom(): boolean {
    while (this.streams.size >= MAX_JOURNALS_PER_SESSION) {
      const finished = this.oldestFinished()
      if (!finished) return false
      this.drop(finished)
    }
    return true
  }

  add(stream: S): void {
    if (stream.journal) this.streams.set(stream.journal.streamId, stream)
  }

  /** After `growing` recorded an event: keeps the session under its size budget. */
  fit(growing: S): void {
    while (this.totalSize() > MAX_JOURNAL_SIZE_PER_SESSION) {
      const finished = this.oldestFinished(growing)
      if (finished) this.drop(finished)
      else if (!growing.journal?.shed()) return
    }
  }

  /** `stream`'s requests are all answered: forgotten a grace after, or a journal's life after when nobody took the answer. */
  finished(stream: S, written: boolean): void {
    clearTimeout(stream.forget)
    stream.forget = setTimeout(() => this.drop(stream), written ? RESUME_GRACE_MS : JOURNAL_TTL_MS)
    stream.forget.unref?.()
  }

  /** Forgets every stream (the session closed). */
  clear(): void {
    for (const stream of this.streams.values()) clearTimeout(stream.forget)
    this.streams.clear()
  }

  values(): IterableIterator<S> {
    return this.streams.values()
  }

  private drop(stream: S): void {
    clearTimeout(stream.forget)
    const streamId = stream.journal?.streamId
    if (streamId === undefined || this.streams.get(streamId) !== stream) return
    this.streams.delete(streamId)
    this.onForget(stream)
  }

  private oldestFinished(except?: S): S | undefined {
    for (const stream of this.streams.values()) {
      if (stream !== except && (stream.waiting.size === 0 || stream.abandoned)) return stream
    }
    return undefined
  }

  private totalSize(): number {
    let total = 0
    for (const stream of this.streams.values()) total += stream.journal?.size ?? 0
    return total
  }
}
