import type { JournalAccount, StreamJournal } from './journal'

/**
 * Who gives way when a budget is over: `'own'`, the journal that grew (a session's share: its
 * growing stream sheds its own events, the session's other running streams keep theirs);
 * `'oldest'`, the journals held longest first (the process's budget: every session's running
 * streams give up their oldest events, the oldest streams first, before the newest lose any).
 */
export type ShedOrder = 'own' | 'oldest'

/**
 * A byte budget over resumable streams' journals, in characters of their events' JSON, with a
 * running total: each journal tells its budget of every event kept or shed
 * ({@link JournalAccount}), so that checking the bound costs nothing per event while under it.
 * Over it, finished streams are forgotten first, those finished longest ago first; then running
 * streams shed events ({@link ShedOrder}), never a stream's last one (a stream still running
 * keeps at least the newest of what its client missed). A budget may count towards a `parent`
 * (a session's share towards the process's): what it holds, the parent holds too, and fitting
 * the one fits the other.
 *
 * @example
 * ```ts
 * const process = new JournalBudget(64 * 1024 * 1024, 'oldest')
 * const session = new JournalBudget(4 * 1024 * 1024, 'own', process)
 * session.hold(journal, () => session.release(journal))
 * journal.record(message)
 * session.fit(journal)
 * ```
 */
export class JournalBudget implements JournalAccount {
  /** The journals held, in the order they came (moved to the back once shed down to one event); with what forgets each. */
  private readonly held = new Map<StreamJournal, () => void>()
  /** The held journals whose streams finished, in the order they did. */
  private readonly finished = new Set<StreamJournal>()
  /** The characters held now: kept up to date by every journal held, never summed. */
  size = 0

  /**
   * @param limit Most characters held; over it, {@link fit} makes room.
   * @param order Who sheds events once no finished stream is left to forget.
   * @param parent A budget this one's journals count towards too.
   */
  constructor(readonly limit: number, private readonly order: ShedOrder = 'own', private readonly parent?: JournalBudget) {}

  /**
   * Counts `journal` from now on, its events so far included. `forget` is called when the budget
   * drops the finished stream whole; it must {@link release} it (and is released anyway).
   */
  hold(journal: StreamJournal, forget: () => void): void {
    if (this.held.has(journal)) return
    this.enter(journal, forget)
    journal.account = this
  }

  /** Stops counting `journal` (its stream was forgotten, or its session closed). */
  release(journal: StreamJournal): void {
    if (!this.held.delete(journal)) return
    this.finished.delete(journal)
    this.size -= journal.size
    if (journal.account === this) journal.account = undefined
    this.parent?.release(journal)
  }

  /** `journal`'s stream finished (or was abandoned): it may now be forgotten whole to make room. */
  finish(journal: StreamJournal): void {
    if (!this.held.has(journal)) return
    this.finished.add(journal)
    this.parent?.finish(journal)
  }

  resized(delta: number): void {
    this.size += delta
    this.parent?.resized(delta)
  }

  /** After `growing` kept an event: makes room until this budget, then its parent, is within its limit (or nothing more may go). */
  fit(growing: StreamJournal): void {
    while (this.size > this.limit) {
      const forgettable = this.oldestFinished(growing)
      if (forgettable) this.forget(forgettable)
      else if (!this.shedOne(growing)) break
    }
    this.parent?.fit(growing)
  }

  /** The held journal whose stream finished longest ago, other than `except`. */
  oldestFinished(except?: StreamJournal): StreamJournal | undefined {
    for (const journal of this.finished) if (journal !== except) return journal
    return undefined
  }

  private enter(journal: StreamJournal, forget: () => void): void {
    this.held.set(journal, forget)
    this.size += journal.size
    this.parent?.enter(journal, forget)
  }

  private forget(journal: StreamJournal): void {
    this.held.get(journal)?.()
    this.release(journal)
  }

  /** Sheds one event; `false` when no journal this budget may take from has more than one. */
  private shedOne(growing: StreamJournal): boolean {
    if (this.order === 'own') return growing.shed()
    // Oldest first: the journal at the front gives up events until its last, then goes to the
    // back, so that the next one to shed is found at once rather than by walking past it again.
    for (let tries = this.held.size; tries > 0; tries--) {
      const [journal, forget] = this.held.entries().next().value ?? []
      if (!journal || !forget) return false
      if (journal.shed()) return true
      this.held.delete(journal)
      this.held.set(journal, forget)
    }
    return false
  }
}
