import { JOURNAL_TTL_MS, RESUME_GRACE_MS } from './journal'
import type { StreamJournal } from './journal'
import { JournalBudget } from './journal-budget'

/** Most resumable streams one session keeps at once. */
export const MAX_JOURNALS_PER_SESSION = 32
/** Most kept events one session holds across its resumable streams, in characters of their JSON. */
export const MAX_JOURNAL_SIZE_PER_SESSION = 4 * 1024 * 1024

/** What the shelf needs of a stream it keeps. */
export interface ShelvedStream {
  journal?: StreamJournal
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
 * resumable, and past the size cap the growing stream sheds its own oldest events. The session's
 * share counts towards the process's budget too, when it is given one (`mcp.sessions.maxResumableBytes`,
 * {@link JournalBudget}), which takes from every session's streams alike.
 *
 * @example
 * ```ts
 * const shelf = new JournalShelf(entry => unmap(entry))
 * if (shelf.makeRoom()) shelf.add(entry)
 * ```
 */
export class JournalShelf<S extends ShelvedStream> {
  private readonly streams = new Map<string, S>()
  /** The session's share of bytes, counted as events come and go (never summed per event). */
  private readonly budget: JournalBudget

  /**
   * @param onForget Called for each stream forgotten (its requests' mappings go with it).
   * @param process The budget every session's streams count towards, besides their session's share.
   */
  constructor(private readonly onForget: (stream: S) => void, process?: JournalBudget) {
    this.budget = new JournalBudget(MAX_JOURNAL_SIZE_PER_SESSION, 'own', process)
  }

  get(streamId: string): S | undefined {
    return this.streams.get(streamId)
  }

  get size(): number {
    return this.streams.size
  }

  /** Whether one more stream may be kept, after forgetting the oldest finished ones that are in the way. */
  makeRoom(): boolean {
    while (this.streams.size >= MAX_JOURNALS_PER_SESSION) {
      const finished = this.budget.oldestFinished()
      const stream = finished && this.streams.get(finished.streamId)
      if (!stream) return false
      this.drop(stream)
    }
    return true
  }

  add(stream: S): void {
    const journal = stream.journal
    if (!journal) return
    this.streams.set(journal.streamId, stream)
    this.budget.hold(journal, () => this.drop(stream))
  }

  /** After `growing` recorded an event: keeps the session under its share, and the process under its budget. */
  fit(growing: S): void {
    if (growing.journal) this.budget.fit(growing.journal)
  }

  /** `stream`'s requests are all answered: forgotten a grace after, or a journal's life after when nobody took the answer. */
  finished(stream: S, written: boolean): void {
    this.abandoned(stream)
    clearTimeout(stream.forget)
    stream.forget = setTimeout(() => this.drop(stream), written ? RESUME_GRACE_MS : JOURNAL_TTL_MS)
    stream.forget.unref?.()
  }

  /** `stream` needs its journal no more (answered, or its requests abandoned): it may be forgotten first to make room. */
  abandoned(stream: S): void {
    if (stream.journal) this.budget.finish(stream.journal)
  }

  /** Forgets every stream (the session closed). */
  clear(): void {
    for (const stream of this.streams.values()) {
      clearTimeout(stream.forget)
      if (stream.journal) this.budget.release(stream.journal)
    }
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
    if (stream.journal) this.budget.release(stream.journal)
    this.onForget(stream)
  }
}
